import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, type Api } from './api.js';
import { Chat } from './Chat.js';
import { Markdown } from './Markdown.js';
import { uploadProblem } from './Reports.js';
import type {
  Attachment,
  ChunkUsed,
  Figure,
  ReportDetail,
  ReportSummary,
  SectionDetail,
  SectionInfo,
} from './types.js';
import { formatSize, STATUS_WORDS } from './words.js';

interface Props {
  api: Api;
  reportId: string;
  navigate: (path: string) => void;
}

type Tab = 'section' | 'figures' | 'attachments';

function summaryOf(figure: Figure): string {
  const a = figure.annotation_json;
  if (!a) return 'No description yet.';
  for (const key of ['summary', 'description', 'caption']) {
    const v = a[key];
    if (typeof v === 'string' && v.trim()) return v;
  }
  return 'No description yet.';
}

export function ReportView({ api, reportId, navigate }: Props) {
  const [report, setReport] = useState<ReportDetail | null>(null);
  const [sections, setSections] = useState<SectionInfo[] | null>(null);
  const [current, setCurrent] = useState<SectionDetail | null>(null);
  const [figures, setFigures] = useState<Figure[] | null>(null);
  const [attachments, setAttachments] = useState<Attachment[] | null>(null);
  const [others, setOthers] = useState<ReportSummary[]>([]);
  const [tab, setTab] = useState<Tab>('section');
  const [error, setError] = useState<string | null>(null);
  const [attachError, setAttachError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The section asked for last: a slower answer to an earlier request (the first section,
  // opened on load) must not replace the one the reader has since clicked.
  const lastAsked = useRef(0);

  const openSection = useCallback(
    async (name: string) => {
      setTab('section');
      const asked = ++lastAsked.current;
      try {
        const detail = await api.json<SectionDetail>(
          `/reports/${reportId}/sections/${encodeURIComponent(name)}`,
        );
        if (asked !== lastAsked.current) return;
        setCurrent(detail);
        requestAnimationFrame(() => headingRef.current?.focus());
      } catch (err) {
        if (asked !== lastAsked.current) return;
        setError(err instanceof Error ? err.message : String(err));
      }
    },
    [api, reportId],
  );

  const loadAttachments = useCallback(async () => {
    setAttachments(await api.json<Attachment[]>(`/ingest/${reportId}/attachments`));
  }, [api, reportId]);

  useEffect(() => {
    let live = true;
    setReport(null);
    setCurrent(null);
    (async () => {
      const detail = await api.json<ReportDetail>(`/reports/${reportId}`);
      if (!live) return;
      setReport(detail);
      const list = await api.json<SectionInfo[]>(`/reports/${reportId}/sections`);
      if (!live) return;
      setSections(list);
      const first = list[0];
      if (first) await openSection(first.section_name);
    })().catch(
      (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
    );
    api
      .json<Figure[]>(`/ingest/${reportId}/figures`)
      .then((f) => live && setFigures(f))
      .catch(() => live && setFigures([]));
    loadAttachments().catch(() => live && setAttachments([]));
    api
      .json<ReportSummary[]>('/reports')
      .then(
        (all) => live && setOthers(all.filter((r) => r.id !== reportId && r.status === 'ready')),
      )
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, reportId, openSection, loadAttachments]);

  async function addAttachment(files: FileList | null) {
    const file = files?.[0];
    if (!file) return;
    setAttachError(null);
    const problem = uploadProblem(file);
    if (problem) return setAttachError(problem);
    try {
      const form = new FormData();
      form.append('file', file);
      await api.json(`/ingest/${reportId}/uploads`, { method: 'POST', body: form });
      await loadAttachments();
    } catch (err) {
      setAttachError(err instanceof ApiError ? err.message : 'The upload failed.');
    }
  }

  async function removeAttachment(a: Attachment) {
    if (!window.confirm(`Delete the attachment "${a.filename}"?`)) return;
    try {
      await api.json(`/ingest/${reportId}/attachments/${a.id}`, { method: 'DELETE' });
      await loadAttachments();
    } catch (err) {
      setAttachError(err instanceof Error ? err.message : String(err));
    }
  }

  function cite(chunk: ChunkUsed) {
    if (chunk.attachment_filename) {
      setTab('attachments');
      return;
    }
    if (chunk.source_type === 'figure') setTab('figures');
    if (chunk.section_name) void openSection(chunk.section_name);
  }

  if (error && !report)
    return (
      <main className="page" id="main">
        <p role="alert" className="error">
          {error}
        </p>
        <button type="button" onClick={() => navigate('/')}>
          Back to your reports
        </button>
      </main>
    );
  if (!report)
    return (
      <main className="page" id="main">
        <p role="status">Loading the report…</p>
      </main>
    );

  return (
    <main className="report-layout" id="main">
      <nav className="sections" aria-label="Sections">
        <a
          href="/"
          onClick={(e) => {
            e.preventDefault();
            navigate('/');
          }}
        >
          ← All reports
        </a>
        <h1 className="report-title">{report.title ?? report.filename}</h1>
        <p className="muted small">
          {STATUS_WORDS[report.status] ?? report.status} · {formatSize(report.size_bytes)}
        </p>
        {sections === null && <p role="status">Loading sections…</p>}
        {sections?.length === 0 && <p className="muted">No sections yet.</p>}
        <ol>
          {sections?.map((s) => (
            <li
              key={s.section_slug}
              style={{ paddingLeft: `${Math.max(0, s.level - 1) * 0.75}rem` }}
            >
              <button
                type="button"
                className="link"
                aria-current={current?.section_name === s.section_name ? 'true' : undefined}
                onClick={() => void openSection(s.section_name)}
              >
                {s.section_name}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <div className="reader">
        <div className="tabs" role="tablist" aria-label="Report content">
          {(['section', 'figures', 'attachments'] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              onClick={() => setTab(t)}
            >
              {t === 'section'
                ? 'Text'
                : t === 'figures'
                  ? `Figures (${figures?.length ?? '…'})`
                  : `Attachments (${attachments?.length ?? '…'})`}
            </button>
          ))}
        </div>
        {tab === 'section' && (
          <article aria-labelledby="section-title">
            {current ? (
              <>
                <h2 id="section-title" tabIndex={-1} ref={headingRef}>
                  {current.section_name}
                </h2>
                {current.page_start !== null && (
                  <p className="muted small">
                    Page {current.page_start}
                    {current.page_end !== null && current.page_end !== current.page_start
                      ? `–${current.page_end}`
                      : ''}
                  </p>
                )}
                <Markdown text={current.markdown} />
              </>
            ) : (
              <p className="muted">
                {report.status === 'ready' || report.status === 'parsed'
                  ? 'Choose a section.'
                  : 'The text appears here once the report is parsed.'}
              </p>
            )}
          </article>
        )}
        {tab === 'figures' && (
          <section aria-label="Figures">
            {figures === null && <p role="status">Loading figures…</p>}
            {figures?.length === 0 && <p className="muted">This report has no figures.</p>}
            <ul className="gallery">
              {figures?.map((f) => (
                <li key={f.id}>
                  <a href={f.original_url} target="_blank" rel="noopener noreferrer">
                    <img src={f.storage_url} alt={summaryOf(f)} loading="lazy" />
                  </a>
                  <p className="small">{summaryOf(f)}</p>
                  <p className="muted small">
                    {f.page_number !== null ? `Page ${f.page_number}` : (f.section_name ?? '')}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        )}
        {tab === 'attachments' && (
          <section aria-label="Attachments">
            <label className="button" htmlFor="attach-input">
              Add an attachment
            </label>
            <input
              id="attach-input"
              type="file"
              className="visually-hidden-input"
              onChange={(e) => void addAttachment(e.target.files)}
            />
            {attachError && (
              <p role="alert" className="error">
                {attachError}
              </p>
            )}
            {attachments?.length === 0 && <p className="muted">No attachments.</p>}
            <ul className="attachments">
              {attachments?.map((a) => (
                <li key={a.id}>
                  <strong>{a.filename}</strong>{' '}
                  <span className="muted small">
                    {formatSize(a.size_bytes)} · {STATUS_WORDS[a.status] ?? a.status} ·{' '}
                    {a.source === 'partner' ? 'from the partner (read-only)' : 'your upload'}
                  </span>
                  {a.note && <p className="small">{a.note}</p>}
                  {a.source === 'user_upload' && (
                    <button
                      type="button"
                      className="small danger"
                      onClick={() => void removeAttachment(a)}
                      aria-label={`Delete attachment ${a.filename}`}
                    >
                      Delete
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
      <aside className="chat-pane">
        <Chat api={api} reportId={reportId} onCite={cite} otherReports={others} />
      </aside>
    </main>
  );
}
