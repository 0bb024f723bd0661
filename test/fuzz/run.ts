import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHtml, sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem } from '../support/system.js';
import { getJson, signIn, upload, waitForStatus } from '../support/client.js';
import {
  fuzzRoutes,
  type Finding,
  type FuzzOptions,
  type FuzzResult,
  type OpenApiDocument,
} from './fuzz.js';

const ADMIN_HASH = 'fuzz-admin-hash-0123456789abcdef0123';
const PARTNER_SECRET = 'fuzz-partner-secret-0123456789abcdef';
const TERMINAL = new Set(['ready', 'failed']);

export interface FuzzReport extends FuzzResult {
  seed: number;
  operations: number;
  orphans: Finding[];
  fiveXX: number;
  hangs: number;
}

async function storedKeys(system: RunningSystem): Promise<string[]> {
  // The local store keeps each object's bytes under `objects/<key>` (and sidecars under `meta/`).
  const dir = path.join(fileURLToPath(system.env.OBJECT_STORE_URL!), 'objects');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/**
 * What the run left behind that nothing owns: a stored file whose report or attachment row is
 * gone, a report or attachment whose file is missing, a conversation without a message that no
 * `POST /conversations` created on purpose, or a
 * report still not `ready`/`failed` once the pipeline had `settleMs` to finish.
 */
export async function findOrphans(
  system: RunningSystem,
  settleMs: number,
  createdConversations: string[],
  deletedPaths: string[] = [],
): Promise<Finding[]> {
  const pool = system.db.pool;
  const deadline = Date.now() + settleMs;
  let stuck: { id: string; status: string }[] = [];
  for (;;) {
    const { rows } = await pool.query<{ id: string; status: string }>(
      `SELECT id, status FROM reports WHERE status NOT IN ('ready', 'failed')
       UNION ALL SELECT id, status FROM attachments WHERE status NOT IN ('ready', 'failed')`,
    );
    stuck = rows.filter((r) => !TERMINAL.has(r.status));
    if (stuck.length === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const findings: Finding[] = stuck.map((r) => ({
    kind: 'orphan',
    operation: 'pipeline',
    case: 'stuck',
    detail: `${r.id} still ${r.status} after ${settleMs} ms`,
  }));
  const keys = new Set(await storedKeys(system));
  const reports = await pool.query<{ id: string; object_key: string }>(
    'SELECT id, object_key FROM reports',
  );
  const attachments = await pool.query<{ id: string; object_key: string }>(
    'SELECT id, object_key FROM attachments',
  );
  const reportIds = new Set(reports.rows.map((r) => r.id));
  const attachmentIds = new Set(attachments.rows.map((r) => r.id));
  for (const row of [...reports.rows, ...attachments.rows]) {
    if (!keys.has(row.object_key))
      findings.push({
        kind: 'orphan',
        operation: 'store',
        case: 'row-without-object',
        detail: `${row.id}: ${row.object_key} is missing`,
      });
  }
  for (const key of keys) {
    const m = /^tenants\/[^/]+\/reports\/([^/]+)(?:\/attachments\/([^/]+))?\//.exec(key);
    const owned = m && reportIds.has(m[1]!) && (!m[2] || attachmentIds.has(m[2]));
    // Deleting a report or attachment keeps its stored files (the interface says so).
    const deleted = m && deletedPaths.some((p) => p.includes(m[2] ?? m[1]!));
    if (!owned && !deleted)
      findings.push({
        kind: 'orphan',
        operation: 'store',
        case: 'object-without-row',
        detail: key,
      });
  }
  const empty = await pool.query<{ id: string }>(
    `SELECT c.id FROM conversations c
      WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id)
        AND c.id <> ALL ($1::uuid[])`,
    [createdConversations],
  );
  for (const row of empty.rows)
    findings.push({
      kind: 'orphan',
      operation: 'chat',
      case: 'empty-conversation',
      detail: row.id,
    });
  return findings;
}

/**
 * Starts the built services, signs in two tenants, gives the first a ready report with an
 * attachment and a conversation, fuzzes every operation of the gateway's `openapi.json`, then
 * looks for orphans. The system is stopped before returning.
 */
export async function runFuzz(
  opts: Omit<FuzzOptions, 'seed'> & { seed: number; settleMs?: number },
): Promise<FuzzReport> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const doc = JSON.parse(
    await readFile(path.join(here, '../../services/gateway/openapi.json'), 'utf8'),
  ) as OpenApiDocument;
  const system = await startSystem({
    env: {
      ADMIN_HASH,
      PARTNER_HMAC_SECRET: PARTNER_SECRET,
      REPORTS_SYNC_TIMEOUT_MS: '20000',
    },
  });
  try {
    const owner = await signIn(system, 'fuzz-owner@example.com');
    const other = await signIn(system, 'fuzz-other@example.com');
    const up = await upload(system, owner, {
      bytes: buildHtml(sampleReportSpec({ sections: 3 })),
      filename: 'fuzz.html',
      type: 'text/html',
    });
    if (up.status !== 202) throw new Error(`seed upload: ${up.status}`);
    const report = up.body.id;
    await waitForStatus(system, owner, report, 'ready', 90_000);
    const form = new FormData();
    form.set('file', new Blob([buildHtml(sampleReportSpec({ sections: 1 }))]), 'note.html');
    const att = await getJson<{ id: string }>(system, owner, `/ingest/${report}/uploads`, {
      method: 'POST',
      body: form,
    });
    if (att.status !== 202) throw new Error(`seed attachment: ${att.status}`);
    const conv = await getJson<{ id: string }>(system, owner, '/conversations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ report_id: report, title: 'fuzz seed conversation' }),
    });
    if (conv.status !== 201) throw new Error(`seed conversation: ${conv.status}`);
    const { rows } = await system.db.pool.query<{ tenant_id: string }>(
      'SELECT tenant_id FROM reports WHERE id = $1',
      [report],
    );
    const result = await fuzzRoutes(
      doc,
      {
        url: system.url,
        token: owner.token,
        otherToken: other.token,
        adminHash: ADMIN_HASH,
        partnerSecret: PARTNER_SECRET,
        ids: {
          report,
          attachment: att.body.id,
          conversation: conv.body.id,
          tenant: rows[0]!.tenant_id,
        },
      },
      opts,
    );
    const orphans = await findOrphans(
      system,
      opts.settleMs ?? 60_000,
      [conv.body.id, ...result.createdConversations],
      result.deletedPaths,
    );
    return {
      ...result,
      seed: opts.seed,
      operations: Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0),
      orphans,
      fiveXX: result.findings.filter((f) => f.kind === '5xx').length,
      hangs: result.findings.filter((f) => f.kind === 'hang').length,
    };
  } finally {
    await system.stop();
  }
}
