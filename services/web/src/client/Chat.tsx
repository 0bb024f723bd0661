import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, jsonBody, readEvents, type Api } from './api.js';
import { Markdown } from './Markdown.js';
import { MemoryControls } from './MemoryControls.js';
import type {
  ChatMessage,
  ChunkUsed,
  Conversation,
  MemoryUsed,
  ModelList,
  ReportSummary,
} from './types.js';

interface Props {
  api: Api;
  reportId: string;
  /** A citation was followed: show this section (null: the report itself). */
  onCite?: (chunk: ChunkUsed) => void;
  /** Other reports, for compare mode (not offered when absent). */
  otherReports?: ReportSummary[];
  /** Reports the error of a request that proved the session is gone (401). */
  onError?: (error: unknown) => void;
  /** Called once the chat box can take a question. */
  onReady?: () => void;
}

interface Turn extends ChatMessage {
  streaming?: boolean;
  error?: string;
}

const MODE_WORDS: Record<string, string> = {
  rag: 'Answer from the most relevant passages',
  full_fallback: 'Answer from the whole report',
  compare: 'Comparing reports',
  snapshot: 'Answer from the page snapshot',
};

export function Chat({ api, reportId, onCite, otherReports, onError, onReady }: Props) {
  const [conversations, setConversations] = useState<Conversation[] | null>(null);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [models, setModels] = useState<ModelList | null>(null);
  const [model, setModel] = useState('');
  const [compare, setCompare] = useState<string[]>([]);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const logRef = useRef<HTMLDivElement>(null);

  const fail = useCallback(
    (err: unknown) => {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      setError(err instanceof Error ? err.message : String(err));
      onError?.(err);
    },
    [onError],
  );

  const loadConversations = useCallback(async () => {
    const list = await api.json<Conversation[]>(
      `/conversations?report_id=${encodeURIComponent(reportId)}`,
    );
    setConversations(list);
    return list;
  }, [api, reportId]);

  useEffect(() => {
    let live = true;
    Promise.all([loadConversations(), api.json<ModelList>('/models')])
      .then(([, list]) => {
        if (!live) return;
        setModels(list);
        onReady?.();
      })
      .catch((err: unknown) => live && fail(err));
    return () => {
      live = false;
      abortRef.current?.abort();
    };
  }, [reportId]);

  useEffect(() => {
    logRef.current?.scrollTo({ top: logRef.current.scrollHeight });
  }, [turns]);

  async function openConversation(id: string) {
    abortRef.current?.abort();
    setConversationId(id);
    setError(null);
    try {
      const messages = await api.json<ChatMessage[]>(`/conversations/${id}/messages`);
      setTurns(messages);
      const last = [...messages].reverse().find((m) => m.role === 'assistant');
      setMode(last?.meta.mode ?? null);
    } catch (err) {
      fail(err);
    }
  }

  function newConversation() {
    abortRef.current?.abort();
    setConversationId(null);
    setTurns([]);
    setMode(null);
    setError(null);
  }

  async function rename(conv: Conversation) {
    const title = window.prompt('New name of the conversation', conv.title)?.trim();
    if (!title) return;
    try {
      await api.json(`/conversations/${conv.id}`, { method: 'PATCH', ...jsonBody({ title }) });
      await loadConversations();
    } catch (err) {
      fail(err);
    }
  }

  async function remove(conv: Conversation) {
    if (!window.confirm(`Delete the conversation "${conv.title}"?`)) return;
    try {
      await api.json(`/conversations/${conv.id}`, { method: 'DELETE' });
      if (conv.id === conversationId) newConversation();
      await loadConversations();
    } catch (err) {
      fail(err);
    }
  }

  async function thumbs(turn: Turn, value: 'up' | 'down') {
    try {
      await api.json('/feedback', { method: 'POST', ...jsonBody({ message_id: turn.id, value }) });
      setTurns((all) => all.map((t) => (t.id === turn.id ? { ...t, feedback: value } : t)));
    } catch (err) {
      fail(err);
    }
  }

  function stop() {
    abortRef.current?.abort();
  }

  async function send(event: React.FormEvent) {
    event.preventDefault();
    const message = input.trim();
    if (!message || busy) return;
    setInput('');
    setError(null);
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    const userTurn: Turn = { id: `u-${Date.now()}`, role: 'user', content: message, meta: {} };
    const answerKey = `a-${Date.now()}`;
    setTurns((all) => [
      ...all,
      userTurn,
      { id: answerKey, role: 'assistant', content: '', meta: {}, streaming: true },
    ]);
    const patchId = { id: answerKey };
    const patch = (update: (t: Turn) => Turn) =>
      setTurns((all) =>
        all.map((t) => (t.id === answerKey || t.id === patchId.id ? update(t) : t)),
      );
    try {
      const res = await api.raw('/chat', {
        method: 'POST',
        signal: controller.signal,
        ...jsonBody({
          report_id: reportId,
          message,
          conversation_id: conversationId,
          model: model || null,
          compare_report_ids: compare.length > 0 ? [reportId, ...compare] : null,
        }),
      });
      const headerMode = res.headers.get('x-chat-mode');
      if (headerMode) setMode(headerMode);
      const conv = res.headers.get('x-conversation-id');
      if (conv && conv !== conversationId) setConversationId(conv);
      await readEvents(res, (ev) => {
        const data = JSON.parse(ev.data) as Record<string, unknown>;
        if (ev.event === 'start') {
          const id = typeof data.message_id === 'string' ? data.message_id : answerKey;
          const chunks = Array.isArray(data.chunks_used) ? (data.chunks_used as ChunkUsed[]) : [];
          const memory = Array.isArray(data.memory_used) ? (data.memory_used as MemoryUsed[]) : [];
          patch((t) => ({
            ...t,
            id,
            meta: { ...t.meta, mode: String(data.mode), chunks_used: chunks, memory_used: memory },
          }));
          patchId.id = id;
        } else if (ev.event === 'chunk') {
          const text = typeof data.text === 'string' ? data.text : '';
          patch((t) => ({ ...t, content: t.content + text }));
        } else if (ev.event === 'end') {
          patch((t) => ({ ...t, streaming: false }));
        } else if (ev.event === 'error') {
          const detail = typeof data.detail === 'string' ? data.detail : '';
          patch((t) => ({
            ...t,
            streaming: false,
            error: `The answer stopped early${detail ? `: ${detail}` : ''}.`,
          }));
        }
      });
      patch((t) => ({ ...t, streaming: false }));
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') {
        patch((t) => ({ ...t, streaming: false, error: 'Stopped.' }));
      } else {
        patch((t) => ({
          ...t,
          streaming: false,
          error: err instanceof ApiError ? err.message : 'The answer could not be loaded.',
        }));
        fail(err);
      }
    } finally {
      setBusy(false);
      abortRef.current = null;
      loadConversations().catch(() => undefined);
    }
  }

  const chunkLabel = (turn: Turn, ref: string): ChunkUsed | undefined =>
    turn.meta.chunks_used?.find((c) => c.ref === ref);

  return (
    <section className="chat" aria-label="Chat about this report">
      <div className="chat-head">
        <h2>Chat</h2>
        {mode && (
          <span className="badge" data-testid="chat-mode" title={MODE_WORDS[mode] ?? mode}>
            Mode: {mode}
          </span>
        )}
      </div>
      <details className="conversations">
        <summary>Conversations ({conversations?.length ?? '…'})</summary>
        <button type="button" onClick={newConversation}>
          New conversation
        </button>
        <MemoryControls api={api} reportId={reportId} onError={fail} />
        {conversations && conversations.length === 0 && (
          <p className="muted">No conversations yet.</p>
        )}
        <ul>
          {conversations?.map((c) => (
            <li key={c.id} className={c.id === conversationId ? 'current' : undefined}>
              <button type="button" className="link" onClick={() => void openConversation(c.id)}>
                {c.title}
              </button>
              <span className="muted"> · {c.message_count} messages</span>
              <button
                type="button"
                className="small"
                onClick={() => void rename(c)}
                aria-label={`Rename ${c.title}`}
              >
                Rename
              </button>
              <button
                type="button"
                className="small danger"
                onClick={() => void remove(c)}
                aria-label={`Delete ${c.title}`}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      </details>
      <div className="chat-log" ref={logRef} aria-live="polite" aria-busy={busy}>
        {turns.length === 0 && <p className="muted">Ask a question about the report.</p>}
        {turns.map((turn) =>
          turn.role === 'user' ? (
            <div key={turn.id} className="turn user">
              <span className="visually-hidden">You:</span>
              {turn.content}
            </div>
          ) : (
            <article key={turn.id} className="turn assistant" data-testid="answer">
              {turn.content ? (
                <Markdown
                  text={turn.content}
                  citations={turn.meta.chunks_used}
                  citeLabel={(ref) => {
                    const c = chunkLabel(turn, ref);
                    return c
                      ? (c.attachment_filename ?? c.section_name ?? 'the report')
                      : undefined;
                  }}
                  onCite={(ref) => {
                    const c = chunkLabel(turn, ref);
                    if (c) onCite?.(c);
                  }}
                />
              ) : turn.streaming ? (
                <p className="muted">Thinking…</p>
              ) : null}
              {(turn.meta.memory_used?.length ?? 0) > 0 && (
                <p className="muted memory-note">Also drew on your earlier conversations.</p>
              )}
              {turn.error && (
                <p className="error" role="alert">
                  {turn.error}
                </p>
              )}
              {!turn.streaming && !turn.id.startsWith('a-') && (
                <div className="thumbs" role="group" aria-label="Rate this answer">
                  <button
                    type="button"
                    aria-pressed={turn.feedback === 'up'}
                    onClick={() => void thumbs(turn, 'up')}
                  >
                    Helpful
                  </button>
                  <button
                    type="button"
                    aria-pressed={turn.feedback === 'down'}
                    onClick={() => void thumbs(turn, 'down')}
                  >
                    Not helpful
                  </button>
                </div>
              )}
            </article>
          ),
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <form className="chat-form" onSubmit={(e) => void send(e)}>
        <label htmlFor="chat-input" className="visually-hidden">
          Your question
        </label>
        <textarea
          id="chat-input"
          value={input}
          placeholder="Ask about this report…"
          rows={2}
          disabled={models === null}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div className="chat-actions">
          {models && models.models.length > 1 && (
            <label>
              Model{' '}
              <select value={model} onChange={(e) => setModel(e.target.value)}>
                <option value="">Default ({models.default})</option>
                {models.models.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.id}
                  </option>
                ))}
              </select>
            </label>
          )}
          {otherReports && otherReports.length > 0 && (
            <details className="compare">
              <summary>Compare with…</summary>
              <fieldset>
                <legend className="visually-hidden">Reports to compare with</legend>
                {otherReports.map((r) => (
                  <label key={r.id} className="check">
                    <input
                      type="checkbox"
                      checked={compare.includes(r.id)}
                      onChange={(e) =>
                        setCompare((all) =>
                          e.target.checked ? [...all, r.id] : all.filter((id) => id !== r.id),
                        )
                      }
                    />{' '}
                    {r.title ?? r.filename}
                  </label>
                ))}
              </fieldset>
            </details>
          )}
          {busy ? (
            <button type="button" className="danger" onClick={stop}>
              Stop
            </button>
          ) : (
            <button type="submit" className="primary" disabled={models === null || !input.trim()}>
              Send
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
