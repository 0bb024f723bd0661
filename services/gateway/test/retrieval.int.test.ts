import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMANDS_STREAM,
  EmbedTargetRequested,
  RetrieveResponse,
  embedCommandSubject,
} from '@reports/contracts';
import {
  freshIp,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

// The gateway's retrieval routes against the real retrieval service, run as its own process
// (built: services/retrieval/dist) on the test's database and NATS server, as in production.

const HASH = 'retrieval-admin-hash-0123456789abcdef';
const RETRIEVAL_MAIN = fileURLToPath(new URL('../../retrieval/dist/main.js', import.meta.url));
let gw: TestGateway;
let alice: TestSession;
let bob: TestSession;
let retrieval: ChildProcess | null = null;
let aliceReport: string;
let bobReport: string;

async function startRetrievalService(): Promise<void> {
  const child = spawn(process.execPath, [RETRIEVAL_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: gw.db.url,
      NATS_URL: gw.natsServer.url,
      LOG_LEVEL: 'info',
      // No operations port: a fixed default would collide with a system running beside.
      METRICS_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  retrieval = child;
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`retrieval did not start: ${lines.join('\n')}`)),
      30_000,
    );
    child.once('exit', (code) =>
      reject(new Error(`retrieval exited ${code}: ${lines.join('\n')}`)),
    );
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line);
        if (line.includes('"msg":"started"')) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
  });
}

async function insertReport(tenantId: string, texts: string[]): Promise<string> {
  const id = randomUUID();
  await gw.db.pool.query(
    `INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal') ON CONFLICT DO NOTHING`,
    [tenantId],
  );
  await gw.db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, 'survey.html', 'text/html', 'html', 1, repeat('0', 64), 'k')`,
    [id, tenantId],
  );
  for (const [i, content] of texts.entries()) {
    await gw.db.pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, target_id, content, content_tokens, order_in_doc, section_name)
       VALUES ($1, $2, $3, $3, $4, 5, $5, 'Roof')`,
      [randomUUID(), tenantId, id, content, i],
    );
  }
  return id;
}

function retrieve(session: TestSession | null, body: unknown, ip = session?.ip ?? freshIp()) {
  return gw.app.inject({
    method: 'POST',
    url: '/retrieve',
    headers: { ...(session ? session.headers() : {}), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
    remoteAddress: ip,
  });
}

beforeAll(async () => {
  gw = await startTestGateway({ ADMIN_HASH: HASH });
  alice = await gw.signIn('alice@example.com');
  bob = await gw.signIn('bob@example.com');
  aliceReport = await insertReport(alice.user.personal_tenant_id, [
    'Several slates are missing from the main roof.',
    'The boiler was serviced last year.',
    'Damp in the cellar walls.',
  ]);
  bobReport = await insertReport(bob.user.personal_tenant_id, ['The roof of the other house.']);
});
afterAll(async () => {
  retrieval?.kill('SIGTERM');
  await gw?.close();
});

describe('POST /retrieve without the retrieval service', () => {
  it('answers 503 when no retrieval service listens', async () => {
    const res = await retrieve(alice, {
      query: 'roof',
      scope: { type: 'folder', report_id: aliceReport },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'service_unavailable' });
  });
});

describe('POST /retrieve', () => {
  beforeAll(startRetrievalService, 60_000);

  it('answers the chunks of the folder with the response object of the spec', async () => {
    const res = await retrieve(alice, {
      query: 'missing roof slates',
      scope: { type: 'folder', report_id: aliceReport },
    });
    expect(res.statusCode).toBe(200);
    const body = RetrieveResponse.parse(res.json());
    expect(body).toMatchObject({
      scope_type: 'folder',
      top_k: 8,
      fusion: 'hybrid_rrf',
      reranked: false,
      used_hyde: false,
    });
    expect(body.chunks[0]!.content).toBe('Several slates are missing from the main roof.');
    // The chunks have no embeddings here: only the keyword leg finds them, and only this one matches.
    expect(body.chunks).toHaveLength(1);
    expect(body.chunks[0]).toMatchObject({ bm25_rank: 1, vector_rank: null, vector_dist: null });
  });

  it('answers 401 without a token', async () => {
    const res = await retrieve(null, {
      query: 'roof',
      scope: { type: 'folder', report_id: aliceReport },
    });
    expect(res.statusCode).toBe(401);
  });

  it('answers 404 for a report of another tenant', async () => {
    const res = await retrieve(bob, {
      query: 'roof',
      scope: { type: 'folder', report_id: aliceReport },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', detail: 'report not found' });
  });

  it('section scope: only that section, by name or slug; 404 for an unknown one or another tenant', async () => {
    const sectionId = randomUUID();
    await gw.db.pool.query(
      `INSERT INTO sections (id, tenant_id, report_id, target_id, section_name, section_slug, level, order_in_doc, markdown)
       VALUES ($1, $2, $3, $3, 'Roof Coverings', 'roof-coverings', 1, 0, '')`,
      [sectionId, alice.user.personal_tenant_id, aliceReport],
    );
    await gw.db.pool.query(
      `UPDATE chunks SET section_id = $1 WHERE report_id = $2 AND content LIKE 'Several%'`,
      [sectionId, aliceReport],
    );
    for (const section of ['Roof Coverings', 'roof-coverings']) {
      const res = await retrieve(alice, {
        query: 'slates boiler damp',
        scope: { type: 'section', report_id: aliceReport, section },
      });
      expect(res.statusCode, section).toBe(200);
      const body = RetrieveResponse.parse(res.json());
      expect(body.scope_type).toBe('section');
      expect(body.chunks.map((c) => c.content)).toEqual([
        'Several slates are missing from the main roof.',
      ]);
    }
    const unknown = await retrieve(alice, {
      query: 'roof',
      scope: { type: 'section', report_id: aliceReport, section: 'Attic' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found', detail: 'section not found: Attic' });
    const foreign = await retrieve(bob, {
      query: 'roof',
      scope: { type: 'section', report_id: aliceReport, section: 'Roof Coverings' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('multi_report scope: one ranking over the reports, each chunk naming its report', async () => {
    const second = await insertReport(alice.user.personal_tenant_id, [
      'The roof of the garage is asbestos cement.',
    ]);
    const res = await retrieve(alice, {
      query: 'roof slates garage',
      scope: { type: 'multi_report', report_ids: [aliceReport, second] },
    });
    expect(res.statusCode).toBe(200);
    const body = RetrieveResponse.parse(res.json());
    expect(body.scope_type).toBe('multi_report');
    expect(new Set(body.chunks.map((c) => c.report_id))).toEqual(new Set([aliceReport, second]));
    const foreign = await retrieve(alice, {
      query: 'roof',
      scope: { type: 'multi_report', report_ids: [aliceReport, bobReport] },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it.each([
    ['no query', { scope: { type: 'folder', report_id: randomUUID() } }],
    ['an empty query', { query: ' ', scope: { type: 'folder', report_id: randomUUID() } }],
    ['top_k 0', { query: 'roof', top_k: 0, scope: { type: 'folder', report_id: randomUUID() } }],
    ['top_k 51', { query: 'roof', top_k: 51, scope: { type: 'folder', report_id: randomUUID() } }],
    ['an unknown scope type', { query: 'roof', scope: { type: 'world', report_id: randomUUID() } }],
    [
      'a report id that is not a uuid',
      { query: 'roof', scope: { type: 'folder', report_id: 'r1' } },
    ],
    [
      'a section scope without a section',
      { query: 'roof', scope: { type: 'section', report_id: randomUUID() } },
    ],
    [
      'multi_report with one report',
      { query: 'roof', scope: { type: 'multi_report', report_ids: [randomUUID()] } },
    ],
    [
      'multi_report with 21 reports',
      {
        query: 'roof',
        scope: { type: 'multi_report', report_ids: Array.from({ length: 21 }, () => randomUUID()) },
      },
    ],
    [
      'multi_report repeating a report',
      {
        query: 'roof',
        scope: {
          type: 'multi_report',
          report_ids: [
            '0b3f6b1e-8a1c-4a57-9a3e-2f3d4c5b6a7e',
            '0b3f6b1e-8a1c-4a57-9a3e-2f3d4c5b6a7e',
          ],
        },
      },
    ],
  ])('answers 422 for %s', async (_name, body) => {
    const res = await retrieve(alice, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('limits a client to 60 retrievals a minute', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      statuses.push(
        (
          await retrieve(
            alice,
            { query: 'roof', top_k: 1, scope: { type: 'folder', report_id: aliceReport } },
            ip,
          )
        ).statusCode,
      );
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});

describe('POST /admin/retrieve/{report_id}', () => {
  it("runs the full flow on any tenant's report with the admin hash", async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: `/admin/retrieve/${bobReport}`,
      headers: { 'x-admin-hash': HASH, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: 'roof', top_k: 4 }),
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(RetrieveResponse.parse(res.json()).chunks.map((c) => c.report_id)).toEqual([bobReport]);
  });

  it('answers 403 without the hash and 404 for an unknown report', async () => {
    const denied = await gw.app.inject({
      method: 'POST',
      url: `/admin/retrieve/${bobReport}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: 'roof' }),
      remoteAddress: freshIp(),
    });
    expect(denied.statusCode).toBe(403);
    const missing = await gw.app.inject({
      method: 'POST',
      url: `/admin/retrieve/${randomUUID()}?hash=${HASH}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: 'roof' }),
      remoteAddress: freshIp(),
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('POST /admin/embed/{target_kind}/{target_id}', () => {
  it('queues an embed command on the COMMANDS stream and answers 202', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: `/admin/embed/report/${aliceReport}`,
      headers: { 'x-admin-hash': HASH },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(202);
    const body = res.json<{ command_id: string }>();
    expect(body).toMatchObject({
      status: 'queued',
      target_kind: 'report',
      target_id: aliceReport,
      report_id: aliceReport,
    });
    const stored = await gw.nats.jsm.streams.getMessage(COMMANDS_STREAM, {
      last_by_subj: embedCommandSubject(alice.user.personal_tenant_id, aliceReport),
    });
    const command = EmbedTargetRequested.parse(stored!.json());
    expect(command).toMatchObject({
      id: body.command_id,
      tenant_id: alice.user.personal_tenant_id,
      target_id: aliceReport,
    });
  });

  it('answers 404 for an unknown target or kind', async () => {
    for (const url of [
      `/admin/embed/report/${randomUUID()}`,
      `/admin/embed/attachment/${aliceReport}`,
      `/admin/embed/figure/${aliceReport}`,
    ]) {
      const res = await gw.app.inject({
        method: 'POST',
        url,
        headers: { 'x-admin-hash': HASH },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode, url).toBe(404);
    }
  });
});
