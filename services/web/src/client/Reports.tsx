import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, readEvents, type Api } from './api.js';
import type { IngestStatus, ReportSummary } from './types.js';
import { formatDate, formatSize, STATUS_WORDS } from './words.js';

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const ACCEPTED = [
  '.pdf',
  '.png',
  '.jpg',
  '.jpeg',
  '.webp',
  '.html',
  '.htm',
  '.mhtml',
  '.mht',
  '.docx',
];
const FINAL = new Set(['ready', 'failed']);

/** The interface's upload limits, checked before sending; a sentence, or null when fine. Pure. */
export function uploadProblem(file: { name: string; size: number }): string | null {
  const name = file.name.toLowerCase();
  if (!ACCEPTED.some((ext) => name.endsWith(ext)))
    return `"${file.name}" is not a supported kind of file. Upload a PDF, PNG, JPEG, WEBP, HTML, MHTML or DOCX file.`;
  if (file.size === 0) return `"${file.name}" is empty.`;
  if (file.size > MAX_UPLOAD_BYTES) return `"${file.name}" is larger than 50 MB.`;
  return null;
}

/**
 * Follows one report's status on the realtime channel; when the channel drops, polls
 * the status endpoint until the report is ready or failed.
 */
export function followStatus(
  api: Api,
  id: string,
  onStatus: (status: string, error: string | null) => void,
  signal: AbortSignal,
): void {
  const poll = async () => {
    while (!signal.aborted) {
      try {
        const s = await api.json<IngestStatus>(`/ingest/${id}/status`, { signal });
        onStatus(s.status, s.ingestion_error);
        if (FINAL.has(s.status)) return;
      } catch {
        if (signal.aborted) return;
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  };
  (async () => {
    let final = false;
    try {
      const res = await api.raw(`/ingest/${id}/events`, {
        signal,
        headers: { accept: 'text/event-stream' },
      });
      await readEvents(res, (ev) => {
        const data = JSON.parse(ev.data) as {
          status?: string;
          target_kind?: string;
          data?: { error?: string };
        };
        if (data.target_kind !== 'report' || !data.status) return;
        onStatus(data.status, data.status === 'failed' ? (data.data?.error ?? null) : null);
        if (FINAL.has(data.status)) final = true;
      });
    } catch {
      // the channel dropped or is unavailable
    }
    if (!final && !signal.aborted) await poll();
  })().catch(() => undefined);
}

interface Props {
  api: Api;
  navigate: (path: string) => void;
}

export function Reports({ api, navigate }: Props) {
  const [reports, setReports] = useState<ReportSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const followed = useRef(new Map<string, AbortController>());

  const setStatus = useCallback((id: string, status: string, ingestionError: string | null) => {
    setReports(
      (all) =>
        all?.map((r) =>
          r.id === id ? { ...r, status, ingestion_error: ingestionError ?? r.ingestion_error } : r,
        ) ?? all,
    );
  }, []);

  const follow = useCallback(
    (id: string) => {
      if (followed.current.has(id)) return;
      const controller = new AbortController();
      followed.current.set(id, controller);
      followStatus(
        api,
        id,
        (s, e) => {
          setStatus(id, s, e);
          // A finished report needs no open channel (browsers allow few per origin).
          if (FINAL.has(s)) controller.abort();
        },
        controller.signal,
      );
    },
    [api, setStatus],
  );

  useEffect(() => {
    api
      .json<ReportSummary[]>('/reports')
      .then((list) => {
        setReports(list);
        for (const r of list) if (!FINAL.has(r.status)) follow(r.id);
      })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
    const map = followed.current;
    return () => {
      for (const c of map.values()) c.abort();
      map.clear();
    };
  }, [api, follow]);

  async function upload(files: FileList | File[] | null) {
    const file = files ? Array.from(files)[0] : undefined;
    if (!file) return;
    setError(null);
    setNotice(null);
    const problem = uploadProblem(file);
    if (problem) {
      setError(problem);
      return;
    }
    setUploading(true);
    try {
      const form = new FormData();
      form.append('file', file);
      const accepted = await api.json<ReportSummary>('/ingest', { method: 'POST', body: form });
      setReports((all) => [
        { ...accepted, created_at: new Date().toISOString(), ingestion_error: null },
        ...(all ?? []),
      ]);
      setNotice(`"${file.name}" was uploaded and is being processed.`);
      follow(accepted.id);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The upload failed. Try again.');
    } finally {
      setUploading(false);
      if (inputRef.current) inputRef.current.value = '';
    }
  }

  async function remove(report: ReportSummary) {
    const name = report.title ?? report.filename;
    if (!window.confirm(`Delete "${name}" and everything extracted from it?`)) return;
    try {
      await api.json(`/ingest/${report.id}`, { method: 'DELETE' });
      followed.current.get(report.id)?.abort();
      setReports((all) => all?.filter((r) => r.id !== report.id) ?? all);
      setNotice(`"${name}" was deleted.`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <main className="page" id="main">
      <h1>Your reports</h1>
      <div
        className={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void upload(e.dataTransfer.files);
        }}
      >
        <p>Drag a report here, or</p>
        <label className="button primary" htmlFor="upload-input">
          Choose a file
        </label>
        <input
          id="upload-input"
          ref={inputRef}
          type="file"
          className="visually-hidden-input"
          accept={ACCEPTED.join(',')}
          onChange={(e) => void upload(e.target.files)}
          disabled={uploading}
        />
        <p className="muted small">PDF, PNG, JPEG, WEBP, HTML, MHTML or DOCX, up to 50 MB.</p>
        {uploading && <p role="status">Uploading…</p>}
      </div>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {reports === null && !error && <p role="status">Loading your reports…</p>}
      {reports?.length === 0 && (
        <p className="empty">No reports yet. Upload your first one above.</p>
      )}
      {reports && reports.length > 0 && (
        <div className="table-wrap">
          <table className="reports">
            <caption className="visually-hidden">Your reports</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Status</th>
                <th scope="col">Date</th>
                <th scope="col">Size</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {reports.map((r) => (
                <tr key={r.id} data-report-id={r.id}>
                  <td>
                    <a
                      href={`/reports/${r.id}`}
                      onClick={(e) => {
                        e.preventDefault();
                        navigate(`/reports/${r.id}`);
                      }}
                    >
                      {r.title ?? r.filename}
                    </a>
                  </td>
                  <td>
                    <span className={`status status-${r.status}`} data-testid="status">
                      {STATUS_WORDS[r.status] ?? r.status}
                    </span>
                    {r.status === 'failed' && r.ingestion_error && (
                      <span className="small muted"> ({r.ingestion_error})</span>
                    )}
                  </td>
                  <td>{formatDate(r.created_at)}</td>
                  <td>{formatSize(r.size_bytes)}</td>
                  <td>
                    <button
                      type="button"
                      className="small danger"
                      onClick={() => void remove(r)}
                      aria-label={`Delete ${r.title ?? r.filename}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
