// Ingest benchmark: generated HTML, DOCX and text PDFs (including 100-page ones) uploaded through
// the API of the whole system (built services as separate processes); measures upload-to-ready
// latency, throughput (documents/s, PDF pages/s) and, in this process, the bare parsing library
// and our parseDocument on the same bytes; local OCR seconds per page of generated scans with
// every core busy; figures per second of the annotate stage (local provider) on reports full of
// photos. Prints a table and writes bench/results/ingest-*.json.
// No assertions on timing; a failed upload or a report ending `failed` is an error (exit 1).
import { execFileSync } from 'node:child_process';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIME_BY_KIND, bareExtract, parseDocument, type DocumentKind } from '@reports/documents';
import { LocalOcrEngine } from '@reports/providers';
import {
  buildDocx,
  buildHtml,
  buildPdf,
  buildPhoto,
  buildScannedReportPdf,
  escapeHtml,
  sampleReportSpec,
  scanPagesSvg,
  specBlocks,
} from '@reports/test-support';
import { SERVICES, startSystem, type RunningSystem } from '../test/support/system.js';
import { distribution, median, round, type Distribution } from './support/stats.js';
import {
  freshIp,
  readEvents,
  signIn,
  upload,
  type Session,
  type SseMessage,
} from '../test/support/client.js';
import { intFromEnv } from './support/env.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = path.join(ROOT, 'bench/results');

/** Documents per kind (HTML, DOCX, ~5-page PDF). */
const N = intFromEnv('BENCH_INGEST_N', 8, 1);
/** 100-page PDFs. */
const LONG_PDFS = intFromEnv('BENCH_INGEST_LONG_PDFS', 2, 1);
const LONG_PDF_PAGES = 100;
const SHORT_PDF_PAGES = 5;
/** Uploads in flight at once. */
const CONCURRENCY = intFromEnv('BENCH_INGEST_CONCURRENCY', 4, 1);
/** In-process timing: runs per file of bareExtract and of parseDocument (the median is kept). */
const REPEATS = 3;
/** The upload route allows 20 per hour per client IP: a fresh X-Forwarded-For every this many. */
const UPLOADS_PER_IP = 15;
const READY_TIMEOUT_MS = 180_000;
/** Scanned PDFs for the OCR figures, and their pages (OCR is slow: a few small pages). */
const OCR_DOCS = intFromEnv('BENCH_INGEST_OCR_DOCS', 2, 1);
const OCR_PAGES = intFromEnv('BENCH_INGEST_OCR_PAGES', 4, 1);
/** HTML documents with photos for the annotation figures, and photos per document. */
const FIGURE_DOCS = intFromEnv('BENCH_INGEST_FIGURE_DOCS', 3, 1);
const FIGURES_PER_DOC = intFromEnv('BENCH_INGEST_FIGURES_PER_DOC', 12, 1);
/** Report shape for every generated document (about 5 A4 pages as a PDF). */
const SPEC_SHAPE = { sections: 10, paragraphsPerSection: 4 } as const;
/**
 * The services run with the production defaults for redelivery (test/support/system.ts shortens
 * them for the reliability suites); everything else is as startSystem sets it.
 */
const SYSTEM_ENV = { STAGE_ACK_WAIT_MS: '30000', STAGE_MAX_DELIVER: '5' };

type Group = 'html' | 'docx' | 'pdf' | 'pdf-100p';
const GROUPS: readonly Group[] = ['html', 'docx', 'pdf', 'pdf-100p'];

interface CorpusFile {
  name: string;
  group: Group;
  kind: DocumentKind;
  seed: number;
  filename: string;
  mime: string;
  bytes: Buffer;
  /** PDF page count (from parseDocument); null for HTML and DOCX. */
  pages: number | null;
  sections: number;
  /** Characters the bare library extracted. */
  chars: number;
}

interface LibrarySample {
  bare_ms: number;
  parse_ms: number;
}

interface SystemSample {
  /** Start of POST /ingest to the ReportReady event, measured by the client. */
  upload_to_ready_ms: number;
  /** The POST /ingest request alone (until its 202). */
  upload_request_ms: number;
  /** Server-side time between consecutive statuses (occurred_at of the first event of each). */
  transitions: Record<string, number>;
}

// ---------------------------------------------------------------- statistics and formatting

function ms(n: number): string {
  if (!Number.isFinite(n)) return '-';
  if (n >= 1000) return `${(n / 1000).toFixed(2)} s`;
  return `${n.toFixed(n < 10 && !Number.isInteger(n) ? 2 : 0)} ms`;
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

// ---------------------------------------------------------------- corpus

async function buildCorpus(): Promise<CorpusFile[]> {
  const files: CorpusFile[] = [];
  const add = (
    group: Group,
    kind: DocumentKind,
    seed: number,
    index: number,
    bytes: Buffer,
  ): void => {
    const ext = kind === 'html' ? 'html' : kind;
    files.push({
      name: `${group}-${index + 1}`,
      group,
      kind,
      seed,
      filename: `${group}-${index + 1}.${ext}`,
      mime: MIME_BY_KIND[kind],
      bytes,
      pages: null,
      sections: 0,
      chars: 0,
    });
  };
  for (let i = 0; i < N; i++) {
    const seed = 1000 + i;
    add('html', 'html', seed, i, buildHtml(sampleReportSpec({ ...SPEC_SHAPE, seed })));
  }
  for (let i = 0; i < N; i++) {
    const seed = 2000 + i;
    add('docx', 'docx', seed, i, await buildDocx(sampleReportSpec({ ...SPEC_SHAPE, seed })));
  }
  for (let i = 0; i < N; i++) {
    const seed = 3000 + i;
    const spec = sampleReportSpec({ ...SPEC_SHAPE, seed });
    add('pdf', 'pdf', seed, i, await buildPdf(spec, { pages: SHORT_PDF_PAGES }));
  }
  for (let i = 0; i < LONG_PDFS; i++) {
    const seed = 4000 + i;
    const spec = sampleReportSpec({ ...SPEC_SHAPE, seed });
    add('pdf-100p', 'pdf', seed, i, await buildPdf(spec, { pages: LONG_PDF_PAGES }));
  }
  return files;
}

/** Round-robin over the groups, so the uploads in flight mix kinds (and the long PDFs spread out). */
function interleave(files: readonly CorpusFile[]): CorpusFile[] {
  const queues = GROUPS.map((g) => files.filter((f) => f.group === g));
  const out: CorpusFile[] = [];
  while (queues.some((q) => q.length > 0)) {
    for (const q of queues) {
      const f = q.shift();
      if (f) out.push(f);
    }
  }
  return out;
}

// ---------------------------------------------------------------- bare library vs parseDocument

async function measureLibrary(files: readonly CorpusFile[]): Promise<Map<string, LibrarySample>> {
  // Warm once per kind: module loading (pdf.js, mammoth) and JIT are not what we compare.
  for (const kind of new Set(files.map((f) => f.kind))) {
    const first = files.find((f) => f.kind === kind)!;
    await bareExtract(kind, first.bytes);
    await parseDocument(kind, first.bytes);
  }
  const samples = new Map<string, LibrarySample>();
  for (const file of files) {
    const bare: number[] = [];
    const parse: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      const b = await timed(() => bareExtract(file.kind, file.bytes));
      const p = await timed(() => parseDocument(file.kind, file.bytes));
      bare.push(b.ms);
      parse.push(p.ms);
      file.chars = b.value;
      file.pages = p.value.page_count;
      file.sections = p.value.sections.length;
    }
    samples.set(file.name, { bare_ms: median(bare), parse_ms: median(parse) });
  }
  return samples;
}

// ---------------------------------------------------------------- OCR (in-process, both cores busy)

interface OcrSummary {
  engine: string;
  documents: number;
  pages: number;
  /** Pages read at once: one Tesseract process (one thread) per page, so every core is busy. */
  parallel_pages: number;
  /** Wall seconds per page over all documents, pages in parallel: the throughput of the machine. */
  s_per_page_all_cores: number;
  /** Seconds one page takes while every core is busy (wall x parallel pages / pages). */
  page_latency_s_all_cores_busy: number;
  /** Wall seconds of one page read alone (one core busy): the latency of a one-page scan. */
  s_per_page_one_core: number;
  /** Headings drawn on the scanned pages found back as section names (OCR and layout quality). */
  headings_found_share: number;
  per_document_s: Distribution;
}

async function measureOcr(): Promise<OcrSummary> {
  const cores = os.availableParallelism();
  const engine = new LocalOcrEngine({ concurrency: cores });
  const docs: { bytes: Buffer; headings: string[] }[] = [];
  const fold = (t: string): string => t.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  for (let i = 0; i < OCR_DOCS; i++) {
    const blocks = specBlocks(sampleReportSpec({ ...SPEC_SHAPE, seed: 5000 + i }));
    const bytes = await buildScannedReportPdf(blocks, { pages: OCR_PAGES });
    // The headings drawn on the kept pages (the 34 px text in the page SVGs; table headers are bold
    // too, but body-sized).
    const headings = scanPagesSvg(blocks)
      .slice(0, OCR_PAGES)
      .flatMap((svg) =>
        [...svg.matchAll(/<text [^>]*font-size="34"[^>]*>([^<]*)<\/text>/g)].map((m) =>
          fold((m[1] ?? '').replace(/&amp;/g, '&')),
        ),
      );
    docs.push({ bytes, headings });
  }
  const ocr = (input: Parameters<LocalOcrEngine['recognise']>[0]) => engine.recognise(input);
  // Warm: pdf.js, pdftoppm and Tesseract's language data are loaded once before timing.
  await parseDocument('pdf', docs[0]!.bytes, { ocr });
  const single = new LocalOcrEngine({ concurrency: 1 });
  const one = await timed(() =>
    single.recognise({ kind: 'pdf', bytes: docs[0]!.bytes, pages: [0] }),
  );
  const perDoc: number[] = [];
  let pages = 0;
  let found = 0;
  let expected = 0;
  const start = performance.now();
  for (const doc of docs) {
    const { ms: took, value } = await timed(() => parseDocument('pdf', doc.bytes, { ocr }));
    perDoc.push(took / 1000);
    pages += value.ocr_pages.length;
    const names = value.sections.map((s) => fold(s.name));
    // Each drawn heading found once, in order (headings repeat in long reports).
    let from = 0;
    for (const h of doc.headings) {
      const at = names.indexOf(h, from);
      if (at >= 0) {
        found++;
        from = at + 1;
      }
    }
    expected += doc.headings.length;
  }
  const wall = (performance.now() - start) / 1000;
  return {
    engine: `${engine.provider}/${engine.model}`,
    documents: docs.length,
    pages,
    parallel_pages: cores,
    s_per_page_all_cores: round(wall / pages, 2),
    page_latency_s_all_cores_busy: round((wall * cores) / pages, 2),
    s_per_page_one_core: round(one.ms / 1000, 2),
    headings_found_share: round(expected > 0 ? found / expected : 0, 2),
    per_document_s: distribution(perDoc, 2),
  };
}

// ---------------------------------------------------------------- figures for annotation

/** An HTML report with `count` distinct photos (data: URIs) spread over its sections. */
async function htmlWithPhotos(seed: number, count: number): Promise<Buffer> {
  const spec = sampleReportSpec({ ...SPEC_SHAPE, seed });
  const out = [
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(spec.title)}</title></head><body>`,
  ];
  let photo = 0;
  for (const [i, section] of spec.sections.entries()) {
    out.push(`<h1>${escapeHtml(section.heading)}</h1>`);
    for (const p of section.paragraphs) out.push(`<p>${escapeHtml(p)}</p>`);
    const here = Math.ceil((count - photo) / (spec.sections.length - i));
    for (let k = 0; k < here; k++, photo++) {
      const png = await buildPhoto(480 + (photo % 5) * 32, 360, seed * 100 + photo);
      out.push(
        `<img src="data:image/png;base64,${png.toString('base64')}" alt="Photo ${photo + 1}">`,
      );
    }
  }
  out.push('</body></html>');
  return Buffer.from(out.join('\n'), 'utf8');
}

interface AnnotationSummary {
  provider: 'local';
  documents: number;
  figures: number;
  /** Figures divided by the server-side parsed -> annotated time, over all documents. */
  figures_per_s: number;
  per_document_figures_per_s: Distribution;
  parsed_to_annotated_ms: Distribution;
}

// ---------------------------------------------------------------- the system

/** The same user, seen from another client address (the gateway trusts X-Forwarded-For from loopback). */
function fromIp(session: Session, ip: string): Session {
  return {
    ...session,
    ip,
    headers: (extra = {}) => ({ ...session.headers(extra), 'x-forwarded-for': ip }),
  };
}

function transitions(events: readonly SseMessage[]): Record<string, number> {
  const firstAt: { status: string; at: number }[] = [];
  for (const e of events) {
    if (firstAt.some((f) => f.status === e.data.status)) continue;
    firstAt.push({ status: e.data.status, at: Date.parse(e.data.occurred_at) });
  }
  const out: Record<string, number> = {};
  for (let i = 1; i < firstAt.length; i++) {
    const prev = firstAt[i - 1]!;
    const cur = firstAt[i]!;
    out[`${prev.status}->${cur.status}`] = cur.at - prev.at;
  }
  return out;
}

function lastLogLines(system: RunningSystem, count: number): string {
  return system.logs
    .filter((l) => {
      const level = l.json?.level;
      return (
        l.json === null ||
        (typeof level === 'number' ? level >= 40 : level === 'warn' || level === 'error')
      );
    })
    .slice(-count)
    .map((l) => `  [${l.service}] ${l.line.slice(0, 400)}`)
    .join('\n');
}

class Uploader {
  private count = 0;
  private sessions: Session[] = [];
  constructor(
    private readonly system: RunningSystem,
    private readonly user: Session,
  ) {}

  private nextSession(): Session {
    const batch = Math.floor(this.count / UPLOADS_PER_IP);
    this.count += 1;
    while (this.sessions.length <= batch) this.sessions.push(fromIp(this.user, freshIp()));
    return this.sessions[batch]!;
  }

  /** Uploads one file and follows its realtime channel to the end; throws unless it is ready. */
  async ingest(file: CorpusFile): Promise<SystemSample> {
    const session = this.nextSession();
    const start = performance.now();
    const res = await upload(
      this.system,
      session,
      { bytes: file.bytes, filename: file.filename, type: file.mime },
      `Benchmark ${file.name}`,
    );
    const accepted = performance.now();
    if (res.status !== 202) {
      throw new Error(
        `${file.name}: POST /ingest answered ${res.status} ${res.body.code ?? ''} ${res.body.detail ?? ''}`.trim(),
      );
    }
    const events = await readEvents(this.system, session, res.body.id, {
      timeoutMs: READY_TIMEOUT_MS,
    });
    const ready = performance.now();
    const last = events.at(-1);
    if (last?.event !== 'ReportReady') {
      const why =
        last?.event === 'StageFailed'
          ? `ended failed: ${JSON.stringify(last.data.data)}`
          : `did not reach ready within ${READY_TIMEOUT_MS / 1000} s (last status ${last?.data.status ?? 'none'})`;
      throw new Error(`${file.name} (report ${res.body.id}) ${why}`);
    }
    return {
      upload_to_ready_ms: ready - start,
      upload_request_ms: accepted - start,
      transitions: transitions(events),
    };
  }
}

/**
 * Runs `fn` over `items` with at most `limit` in flight. The first failure stops new starts; what
 * is in flight is waited for (so no request is left open when the system stops), then it throws.
 */
async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const errors: unknown[] = [];
  const worker = async (): Promise<void> => {
    while (errors.length === 0 && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
  return results;
}

function summarize(
  files: readonly CorpusFile[],
  library: ReadonlyMap<string, LibrarySample>,
  system: ReadonlyMap<string, SystemSample>,
) {
  const lib = files.map((f) => library.get(f.name)!);
  const sys = files.map((f) => system.get(f.name)!);
  const bare = lib.map((s) => s.bare_ms);
  const parse = lib.map((s) => s.parse_ms);
  const ready = sys.map((s) => s.upload_to_ready_ms);
  const transitionNames = [...new Set(sys.flatMap((s) => Object.keys(s.transitions)))];
  const pages = files.map((f) => f.pages ?? 0);
  const isPdf = files[0]?.kind === 'pdf';
  return {
    files: files.length,
    kind: files[0]?.kind ?? null,
    bytes: distribution(
      files.map((f) => f.bytes.length),
      0,
    ),
    pages_per_file: isPdf ? distribution(pages, 0) : null,
    sections_per_file: distribution(
      files.map((f) => f.sections),
      0,
    ),
    bare_chars_per_file: distribution(
      files.map((f) => f.chars),
      0,
    ),
    bare_extract_ms: distribution(bare),
    parse_ms: distribution(parse),
    upload_to_ready_ms: distribution(ready),
    upload_request_ms: distribution(sys.map((s) => s.upload_request_ms)),
    server_transitions_ms: Object.fromEntries(
      transitionNames.map((t) => [
        t,
        distribution(
          sys.map((s) => s.transitions[t] ?? 0),
          0,
        ),
      ]),
    ),
    ratios: {
      upload_to_ready_over_bare_extract: round(median(ready) / median(bare), 1),
      parse_over_bare_extract: round(median(parse) / median(bare), 2),
    },
    pages_per_s: isPdf
      ? {
          upload_to_ready: distribution(files.map((f, i) => (f.pages ?? 0) / (ready[i]! / 1000))),
          bare_extract: round(median(pages) / (median(bare) / 1000), 1),
          parse: round(median(pages) / (median(parse) / 1000), 1),
        }
      : null,
  };
}
type GroupSummary = ReturnType<typeof summarize>;

// ---------------------------------------------------------------- main

function gitCommit(): { commit: string | null; dirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' });
    return { commit, dirty: status.trim() !== '' };
  } catch {
    return { commit: null, dirty: null };
  }
}

let system: RunningSystem | undefined;
let stopping: Promise<void> | undefined;
/**
 * Tears the system down once. `interrupted`: requests and stage work may still be in flight, and
 * the services' graceful shutdown waits for them (the gateway for open SSE channels, for as long
 * as they stay open), so the services are killed outright first.
 */
function stopSystem(interrupted = false): Promise<void> {
  const running = system;
  stopping ??= running
    ? (interrupted
        ? Promise.all(SERVICES.map((name) => running.kill(name, 'SIGKILL')))
        : Promise.resolve()
      ).then(() => running.stop())
    : Promise.resolve();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\ningest: ${signal}, tearing the system down`);
    void stopSystem(true).finally(() => process.exit(130));
  });
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const t0 = performance.now();

  console.log(
    `ingest: generating the corpus (N=${N} per kind, ${LONG_PDFS} PDFs of ${LONG_PDF_PAGES} pages)`,
  );
  const corpus = await buildCorpus();

  console.log(
    `ingest: timing the bare libraries and parseDocument in-process (${REPEATS} runs per file)`,
  );
  const library = await measureLibrary(corpus);

  console.log(
    `ingest: local OCR of ${OCR_DOCS} scanned PDFs of ${OCR_PAGES} pages, pages in parallel on ${os.availableParallelism()} cores`,
  );
  const ocrSummary = await measureOcr();

  console.log(
    'ingest: starting the system (Postgres database, NATS, local object store, 4 services)',
  );
  let systemSamples: Map<string, SystemSample>;
  let wallMs: number;
  let annotation: AnnotationSummary;
  let warmup: { name: string; upload_to_ready_ms: number }[];
  try {
    system = await startSystem({ objectStore: 'local', env: SYSTEM_ENV });
    const user = await signIn(system, 'bench@example.com');
    const uploader = new Uploader(system, user);

    // Cold start (lazy module loads, JIT, first database connections) is kept out of the figures:
    // one small document of each kind goes through first, one at a time.
    warmup = [];
    for (const [i, kind] of (['html', 'docx', 'pdf'] as const).entries()) {
      const seed = 9000 + i;
      const spec = sampleReportSpec({ ...SPEC_SHAPE, seed });
      const bytes =
        kind === 'html'
          ? buildHtml(spec)
          : kind === 'docx'
            ? await buildDocx(spec)
            : await buildPdf(spec);
      const file: CorpusFile = {
        name: `warmup-${kind}`,
        group: kind,
        kind,
        seed,
        filename: `warmup.${kind}`,
        mime: MIME_BY_KIND[kind],
        bytes,
        pages: null,
        sections: 0,
        chars: 0,
      };
      warmup.push({
        name: file.name,
        upload_to_ready_ms: round((await uploader.ingest(file)).upload_to_ready_ms),
      });
    }

    const order = interleave(corpus);
    console.log(`ingest: uploading ${order.length} documents, ${CONCURRENCY} in flight`);
    const wallStart = performance.now();
    const results = await pool(order, CONCURRENCY, (file) => uploader.ingest(file));
    wallMs = performance.now() - wallStart;
    systemSamples = new Map(order.map((f, i) => [f.name, results[i]!]));

    console.log(
      `ingest: ${FIGURE_DOCS} HTML reports with ${FIGURES_PER_DOC} photos each, one at a time (annotation)`,
    );
    const figureSamples: SystemSample[] = [];
    for (let i = 0; i < FIGURE_DOCS; i++) {
      figureSamples.push(
        await uploader.ingest({
          name: `figures-${i + 1}`,
          group: 'html',
          kind: 'html',
          seed: 6000 + i,
          filename: `figures-${i + 1}.html`,
          mime: MIME_BY_KIND.html,
          bytes: await htmlWithPhotos(6000 + i, FIGURES_PER_DOC),
          pages: null,
          sections: 0,
          chars: 0,
        }),
      );
    }
    const annotateMs = figureSamples.map((f) => f.transitions['parsed->annotated'] ?? Number.NaN);
    annotation = {
      provider: 'local',
      documents: FIGURE_DOCS,
      figures: FIGURE_DOCS * FIGURES_PER_DOC,
      figures_per_s: round(
        (FIGURE_DOCS * FIGURES_PER_DOC) / (annotateMs.reduce((a, b) => a + b, 0) / 1000),
        1,
      ),
      per_document_figures_per_s: distribution(annotateMs.map((t) => FIGURES_PER_DOC / (t / 1000))),
      parsed_to_annotated_ms: distribution(annotateMs, 0),
    };
  } catch (error) {
    if (system) {
      const tail = lastLogLines(system, 15);
      if (tail) console.error(`ingest: last warnings and errors from the services:\n${tail}`);
    }
    throw error;
  } finally {
    await stopSystem();
  }

  // ------------------------------------------------------------ summary
  const groups = Object.fromEntries(
    GROUPS.map((group) => [
      group,
      summarize(
        corpus.filter((f) => f.group === group),
        library,
        systemSamples,
      ),
    ]),
  ) as Record<Group, GroupSummary>;

  const pdfPages = corpus.filter((f) => f.kind === 'pdf').reduce((s, f) => s + (f.pages ?? 0), 0);
  const throughput = {
    concurrency: CONCURRENCY,
    documents: corpus.length,
    wall_s: round(wallMs / 1000, 2),
    documents_per_s: round(corpus.length / (wallMs / 1000), 2),
    pdf_pages: pdfPages,
    pdf_pages_per_s: round(pdfPages / (wallMs / 1000), 1),
  };
  const { commit, dirty } = gitCommit();
  const cpus = os.cpus();
  const result = {
    benchmark: 'ingest',
    date: startedAt.toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu_count: cpus.length,
    cpu_model: cpus[0]?.model.trim() ?? null,
    commit,
    dirty,
    config: {
      ocr_documents: OCR_DOCS,
      ocr_pages_per_document: OCR_PAGES,
      figure_documents: FIGURE_DOCS,
      figures_per_document: FIGURES_PER_DOC,
      n_per_kind: N,
      long_pdfs: LONG_PDFS,
      concurrency: CONCURRENCY,
      library_repeats_per_file: REPEATS,
      uploads_per_client_ip: UPLOADS_PER_IP,
      object_store: 'local',
      system_env: SYSTEM_ENV,
    },
    corpus: {
      description:
        `sampleReportSpec(${SPEC_SHAPE.sections} sections x ${SPEC_SHAPE.paragraphsPerSection} paragraphs) per document; ` +
        `${N} HTML (seeds 1000+), ${N} DOCX (2000+), ${N} text PDFs padded to >= ${SHORT_PDF_PAGES} pages (3000+), ` +
        `${LONG_PDFS} text PDFs of ${LONG_PDF_PAGES} pages (4000+); uploaded interleaved by kind`,
      files: corpus.map((f) => ({
        name: f.name,
        kind: f.kind,
        bytes: f.bytes.length,
        pages: f.pages,
        bare_ms: round(library.get(f.name)!.bare_ms),
        parse_ms: round(library.get(f.name)!.parse_ms),
        upload_to_ready_ms: round(systemSamples.get(f.name)!.upload_to_ready_ms),
      })),
    },
    warmup_upload_to_ready_ms: warmup,
    throughput,
    text_pdf: {
      description:
        'text PDFs (5 and 100 pages): pages per second of parseDocument against the bare pdf.js text extraction on the same files, in-process, p50 files',
      pages_per_s_parse: groups.pdf.pages_per_s?.parse ?? null,
      pages_per_s_bare: groups.pdf.pages_per_s?.bare_extract ?? null,
      parse_over_bare_time_ratio: groups.pdf.ratios.parse_over_bare_extract,
      pages_per_s_parse_100p: groups['pdf-100p'].pages_per_s?.parse ?? null,
      pages_per_s_bare_100p: groups['pdf-100p'].pages_per_s?.bare_extract ?? null,
      parse_over_bare_time_ratio_100p: groups['pdf-100p'].ratios.parse_over_bare_extract,
    },
    ocr: ocrSummary,
    annotation,
    groups,
    total_run_s: round((performance.now() - t0) / 1000, 1),
  };

  // ------------------------------------------------------------ printing
  const g = groups;
  const rows = GROUPS.map((group) => {
    const s = g[group];
    return [
      group,
      String(s.files),
      `${(s.bytes.p50 / 1024).toFixed(0)} KiB`,
      s.pages_per_file ? String(s.pages_per_file.p50) : '-',
      ms(s.bare_extract_ms.p50),
      ms(s.parse_ms.p50),
      ms(s.upload_to_ready_ms.p50),
      ms(s.upload_to_ready_ms.p95),
      ms(s.upload_to_ready_ms.max),
      `${s.ratios.parse_over_bare_extract.toFixed(2)}x`,
      `${s.ratios.upload_to_ready_over_bare_extract.toFixed(1)}x`,
      s.pages_per_s ? s.pages_per_s.upload_to_ready.p50.toFixed(1) : '-',
      s.pages_per_s ? s.pages_per_s.bare_extract.toFixed(0) : '-',
    ];
  });
  console.log('');
  console.log(
    table(
      [
        'kind',
        'files',
        'size',
        'pages',
        'bare p50',
        'parse p50',
        'ready p50',
        'ready p95',
        'ready max',
        'parse/bare',
        'ready/bare',
        'pages/s',
        'bare pages/s',
      ],
      rows,
    ),
  );
  const transitionNames = [
    ...new Set(GROUPS.flatMap((group) => Object.keys(g[group].server_transitions_ms))),
  ];
  console.log(
    '\nserver-side time between statuses, p50 (from event occurred_at; includes queueing):',
  );
  console.log(
    table(
      ['kind', 'POST /ingest', ...transitionNames],
      GROUPS.map((group) => {
        const s = g[group];
        const tr = s.server_transitions_ms;
        return [
          group,
          ms(s.upload_request_ms.p50),
          ...transitionNames.map((t) => (tr[t] ? ms(tr[t].p50) : '-')),
        ];
      }),
    ),
  );
  console.log(
    `\nthroughput: ${throughput.documents} documents in ${throughput.wall_s} s with ${CONCURRENCY} in flight = ` +
      `${throughput.documents_per_s} documents/s; ${pdfPages} PDF pages / wall time = ${throughput.pdf_pages_per_s} pages/s`,
  );
  console.log(
    `OCR (${ocrSummary.engine}): ${ocrSummary.pages} scanned pages in ${ocrSummary.documents} PDFs, ` +
      `${ocrSummary.s_per_page_all_cores} s/page of wall time with ${ocrSummary.parallel_pages} pages in parallel ` +
      `(each page ${ocrSummary.page_latency_s_all_cores_busy} s while all cores are busy), ` +
      `${ocrSummary.s_per_page_one_core} s for one page alone; headings found ${Math.round(ocrSummary.headings_found_share * 100)}%`,
  );
  console.log(
    `annotation (local provider): ${annotation.figures} figures at ${annotation.figures_per_s} figures/s ` +
      `(parsed -> annotated p50 ${ms(annotation.parsed_to_annotated_ms.p50)} for ${FIGURES_PER_DOC} figures)`,
  );
  console.log(
    `cold start (not in the figures): ${warmup.map((w) => `${w.name} ${ms(w.upload_to_ready_ms)}`).join(', ')}`,
  );
  console.log(
    `ready = start of POST /ingest to ReportReady on the SSE channel; bare = bareExtract (pdf.js text / mammoth / sanitize-html); ` +
      `parse = parseDocument; pages/s = pages / ready seconds (per file, p50); node ${process.version}, ${cpus.length} CPUs, commit ${commit ?? '?'}${dirty ? ' (dirty)' : ''}`,
  );

  // ------------------------------------------------------------ writing
  await mkdir(RESULTS_DIR, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const json = `${JSON.stringify(result, null, 2)}\n`;
  const written: string[] = [];
  for (const name of [`ingest-${stamp}.json`, 'ingest-latest.json']) {
    const target = path.join(RESULTS_DIR, name);
    await writeFile(`${target}.tmp`, json);
    await rename(`${target}.tmp`, target);
    written.push(path.relative(ROOT, target));
  }
  console.log(`\ningest: wrote ${written.join(' and ')} (total ${result.total_run_s} s)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(
      `ingest: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
