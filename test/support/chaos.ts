import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDocx, buildPdf, sampleReportSpec } from '@reports/test-support';
import { freshIp, type Session } from './client.js';
import type { RunningSystem } from './system.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Small mixed documents (multi-page PDFs and DOCX), different text each. */
export async function smallDocuments(
  n: number,
  seed = 1,
): Promise<Array<{ bytes: Buffer; filename: string; type: string }>> {
  const docs = [];
  for (let i = 0; i < n; i += 1) {
    const spec = sampleReportSpec({ sections: 3, paragraphsPerSection: 1, seed: seed * 1000 + i });
    docs.push(
      i % 2 === 0
        ? {
            bytes: await buildPdf(spec, { pages: 2 }),
            filename: `r${i}.pdf`,
            type: 'application/pdf',
          }
        : {
            bytes: await buildDocx(spec),
            filename: `r${i}.docx`,
            type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          },
    );
  }
  return docs;
}

/**
 * Uploads every document, `parallel` at a time, each from a client address of its own (the
 * upload rate limit is per address). A 503 (NATS away) is retried after a pause, as a client
 * would. Returns the accepted report ids, and how many answers were 503.
 */
export async function uploadAll(
  system: RunningSystem,
  session: Session,
  docs: Array<{ bytes: Buffer; filename: string; type: string }>,
  opts: { parallel?: number; onAccepted?: (count: number) => void } = {},
): Promise<{ ids: string[]; unavailable: number }> {
  const ids: string[] = [];
  let unavailable = 0;
  let next = 0;
  const worker = async () => {
    while (next < docs.length) {
      const doc = docs[next]!;
      next += 1;
      for (let attempt = 1; ; attempt += 1) {
        const form = new FormData();
        form.set('file', new Blob([doc.bytes], { type: doc.type }), doc.filename);
        const res = await fetch(`${system.url}/ingest`, {
          method: 'POST',
          headers: { ...session.headers(), 'x-forwarded-for': freshIp() },
          body: form,
        });
        const body = (await res.json()) as { id?: string; detail?: string };
        if (res.status === 202 && body.id) {
          ids.push(body.id);
          opts.onAccepted?.(ids.length);
          break;
        }
        if (res.status === 503 && attempt < 20) {
          unavailable += 1;
          await new Promise((r) => setTimeout(r, 500));
          continue;
        }
        throw new Error(`upload ${doc.filename}: ${res.status} ${JSON.stringify(body)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.parallel ?? 6 }, worker));
  return { ids, unavailable };
}

export interface Settled {
  uploads: number;
  ready: number;
  failedWithReason: number;
  failedWithoutReason: number;
  /** Not ready or failed by the deadline. */
  stuck: number;
  reasons: string[];
  stuckStatuses: string[];
}

/** Waits until every report is `ready` or `failed`, or the deadline passes; counts them. */
export async function settle(
  system: RunningSystem,
  ids: string[],
  timeoutMs: number,
): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await system.db.pool.query<{
      id: string;
      status: string;
      ingestion_error: string | null;
    }>('SELECT id, status, ingestion_error FROM reports WHERE id = ANY($1)', [ids]);
    const open = rows.filter((r) => r.status !== 'ready' && r.status !== 'failed');
    if ((open.length === 0 && rows.length === ids.length) || Date.now() > deadline) {
      const failed = rows.filter((r) => r.status === 'failed');
      return {
        uploads: ids.length,
        ready: rows.filter((r) => r.status === 'ready').length,
        failedWithReason: failed.filter((r) => r.ingestion_error).length,
        failedWithoutReason: failed.filter((r) => !r.ingestion_error).length,
        stuck: open.length + (ids.length - rows.length),
        reasons: failed.map((r) => r.ingestion_error ?? ''),
        stuckStatuses: open.map((r) => `${r.id} ${r.status}`),
      };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface VerifyReport {
  events: number;
  targets: number;
  without_events: number;
  disagreements: Array<{ report_id: string; problems: string[] }>;
}

/** Runs `npm run events -- verify --json` (the built CLI) against the system. */
export async function runVerify(
  system: RunningSystem,
): Promise<{ code: number; report: VerifyReport }> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'services/ingestion/dist/operations/cli.js'), 'verify', '--json'],
    { env: { ...system.env, LOG_LEVEL: 'error' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  const line = stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{'))
    throw new Error(`verify printed no JSON (exit ${code}): ${stdout}${stderr}`);
  return { code, report: JSON.parse(line) as VerifyReport };
}

/** One line of figures per scenario, as the issue asks for them. */
export function figures(scenario: string, s: Settled, disagreeing: number): string {
  return (
    `chaos ${scenario}: uploads ${s.uploads} / ready ${s.ready} / failed-with-reason ${s.failedWithReason}` +
    ` / failed-without-reason ${s.failedWithoutReason} / stuck ${s.stuck} / disagreeing ${disagreeing}`
  );
}
