import { useEffect, useState } from 'react';
import { jsonBody, type Api } from './api.js';

interface Props {
  api: Api;
  reportId: string;
  onError: (err: unknown) => void;
}

/**
 * Chat memory (ADR 133): whether the user's turns recall their own earlier conversations
 * about a report (off until they turn it on), and a way to make it forget this report's.
 */
export function MemoryControls({ api, reportId, onError }: Props) {
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [forgotten, setForgotten] = useState(false);

  useEffect(() => {
    let live = true;
    api
      .json<{ enabled: boolean }>('/chat/memory')
      .then((m) => live && setEnabled(m.enabled))
      .catch((err: unknown) => live && onError(err));
    return () => {
      live = false;
    };
  }, [api]);

  async function toggle(on: boolean) {
    // Shown at once; put back if the gateway refuses it.
    setEnabled(on);
    setForgotten(false);
    try {
      const m = await api.json<{ enabled: boolean }>('/chat/memory', {
        method: 'PUT',
        ...jsonBody({ enabled: on }),
      });
      setEnabled(m.enabled);
    } catch (err) {
      setEnabled(!on);
      onError(err);
    }
  }

  async function forget() {
    if (!window.confirm('Forget everything you asked about this report so far?')) return;
    try {
      await api.json(`/chat/memory?report_id=${encodeURIComponent(reportId)}`, {
        method: 'DELETE',
      });
      setForgotten(true);
    } catch (err) {
      onError(err);
    }
  }

  return (
    <div className="memory">
      <label>
        <input
          type="checkbox"
          checked={enabled ?? false}
          disabled={enabled === null}
          onChange={(e) => void toggle(e.target.checked)}
        />{' '}
        Remember my earlier conversations about this report
      </label>
      <button type="button" className="small" onClick={() => void forget()}>
        Forget what I asked before
      </button>
      {forgotten && (
        <span className="muted" role="status">
          {' '}
          Forgotten.
        </span>
      )}
    </div>
  );
}
