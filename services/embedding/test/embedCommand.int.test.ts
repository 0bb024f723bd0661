import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedCommandSubject, type EmbedTargetRequested } from '@reports/contracts';
import {
  connectNats,
  createLogger,
  provisionReportsStream,
  type ConsumerHandle,
  type Nats,
} from '@reports/platform';
import { LocalEmbedder, OpenAIEmbedder } from '@reports/providers';
import { PostgresKeywordIndex } from '@reports/search';
import {
  createTestDatabase,
  startNatsServer,
  type TestDatabase,
  type TestNatsServer,
} from '@reports/test-support';
import { startFakeServer, type FakeServer } from '@reports/test-support';
import { startEmbedCommands } from '../src/commands/embedCommand.js';
import type { EmbedDeps } from '../src/embed/embedStage.js';

// The embed command (POST /admin/embed backfill) end to end inside the embedding service:
// real JetStream COMMANDS stream, real Postgres, the local embedder or an OpenAI-compatible
// one on a local server that fails.

let db: TestDatabase;
let natsServer: TestNatsServer;
let nats: Nats;
let provider: FakeServer;
const tenantId = randomUUID();

async function insertReportWithSections(sections: string[]): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal') ON CONFLICT DO NOTHING`,
    [tenantId],
  );
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, 'survey.html', 'text/html', 'html', 1, repeat('0', 64), 'k')`,
    [id, tenantId],
  );
  for (const [i, markdown] of sections.entries()) {
    await db.pool.query(
      `INSERT INTO sections (id, tenant_id, report_id, target_id, section_name, section_slug, level, order_in_doc, markdown)
       VALUES ($1, $2, $3, $3, $4, $5, 1, $6, $7)`,
      [randomUUID(), tenantId, id, `Section ${i}`, `section-${i}`, i, markdown],
    );
  }
  return id;
}

async function command(reportId: string): Promise<void> {
  const cmd: EmbedTargetRequested = {
    id: randomUUID(),
    type: 'EmbedTargetRequested',
    version: 1,
    requested_at: new Date().toISOString(),
    tenant_id: tenantId,
    report_id: reportId,
    target_kind: 'report',
    target_id: reportId,
  };
  await nats.js.publish(embedCommandSubject(tenantId, reportId), JSON.stringify(cmd), {
    msgID: cmd.id,
  });
}

async function runs(reportId: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM stage_runs WHERE target_id = $1 AND stage = 'embed'`,
    [reportId],
  );
  return rows[0]!.n;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function withConsumer(deps: EmbedDeps, fn: () => Promise<void>): Promise<void> {
  const handle: ConsumerHandle = await startEmbedCommands(deps, {
    nats,
    pool: db.pool,
    logger: createLogger('embed-test', 'silent'),
    concurrency: 2,
    maxDeliver: 3,
    ackWaitMs: 10_000,
    timeoutMs: 30_000,
    replicas: 1,
  });
  try {
    await fn();
  } finally {
    await handle.stop();
  }
}

const chunkState = async (reportId: string) =>
  (
    await db.pool.query<{ id: string; content: string; embedded: boolean }>(
      'SELECT id, content, embedding IS NOT NULL AS embedded FROM chunks WHERE report_id = $1 ORDER BY order_in_doc',
      [reportId],
    )
  ).rows;

beforeAll(async () => {
  db = await createTestDatabase();
  natsServer = await startNatsServer();
  nats = await connectNats(natsServer.url, 'embed-command-test');
  await provisionReportsStream(nats.jsm, 1);
  provider = await startFakeServer([
    { method: 'POST', path: '/v1/embeddings', success: () => ({ object: 'list', data: [] }) },
  ]);
});
afterAll(async () => {
  await nats?.nc.close();
  await natsServer?.stop();
  await provider?.close();
  await db?.drop();
});

describe('the embed command', () => {
  it('re-chunks and re-embeds a target, idempotently', async () => {
    const reportId = await insertReportWithSections([
      'The roof slates are missing.',
      'Damp in the cellar.',
    ]);
    await withConsumer(
      {
        pool: db.pool,
        embedder: new LocalEmbedder(),
        keywordIndex: new PostgresKeywordIndex(db.pool),
      },
      async () => {
        await command(reportId);
        await until(async () => (await runs(reportId)) === 1, 'the first run');
        const first = await chunkState(reportId);
        expect(first.map((c) => c.content)).toEqual([
          'The roof slates are missing.',
          'Damp in the cellar.',
        ]);
        expect(first.every((c) => c.embedded)).toBe(true);

        await command(reportId);
        await until(async () => (await runs(reportId)) === 2, 'the second run');
        const second = await chunkState(reportId);
        expect(second.map((c) => c.content)).toEqual(first.map((c) => c.content));
        // Replaced, not added to: new rows, same content, same count.
        expect(second.map((c) => c.id)).not.toEqual(first.map((c) => c.id));
        const { rows } = await db.pool.query(`SELECT parsed_metadata FROM reports WHERE id = $1`, [
          reportId,
        ]);
        expect(rows[0].parsed_metadata).toMatchObject({
          embedding_status: 'complete',
          chunks: 2,
          embedded_chunks: 2,
        });
        const hits = await new PostgresKeywordIndex(db.pool).search(reportId, 'cellar', 5);
        expect(hits.map((h) => h.chunk_id)).toEqual([second[1]!.id]);
      },
    );
  });

  it('keeps the chunks without embeddings when the provider fails (soft failure): status failed, keyword leg still finds them', async () => {
    const reportId = await insertReportWithSections(['Asbestos panels in the garage.']);
    provider.rule('/v1/embeddings', () => true, {
      kind: 'status',
      status: 500,
      headers: { 'retry-after-ms': '1' },
    });
    const failing = new OpenAIEmbedder({
      apiKey: 'sk',
      baseURL: `${provider.url}/v1`,
      maxRetries: 1,
      initialBackoffMs: 1,
      timeoutMs: 2000,
    });
    await withConsumer(
      { pool: db.pool, embedder: failing, keywordIndex: new PostgresKeywordIndex(db.pool) },
      async () => {
        await command(reportId);
        await until(async () => (await runs(reportId)) === 1, 'the run');
      },
    );
    provider.reset();
    const chunks = await chunkState(reportId);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.embedded).toBe(false);
    const { rows } = await db.pool.query(`SELECT parsed_metadata FROM reports WHERE id = $1`, [
      reportId,
    ]);
    expect(rows[0].parsed_metadata).toMatchObject({
      embedding_status: 'failed',
      chunks: 1,
      embedded_chunks: 0,
    });
    const hits = await new PostgresKeywordIndex(db.pool).search(reportId, 'asbestos', 5);
    expect(hits.map((h) => h.chunk_id)).toEqual([chunks[0]!.id]);
  });

  it('skips a target that no longer exists', async () => {
    const reportId = randomUUID();
    await withConsumer({ pool: db.pool, embedder: new LocalEmbedder() }, async () => {
      await command(reportId);
      await new Promise((r) => setTimeout(r, 500));
    });
    expect(await runs(reportId)).toBe(0);
  });
});
