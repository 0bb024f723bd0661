import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { EventOf, EventType } from '@reports/contracts';
import {
  connectNats,
  newEvent,
  provisionReportsStream,
  provisionStage,
  publishEvent,
  type EventOrigin,
  type Nats,
} from '@reports/platform';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import { startNatsServer, type TestNatsServer } from '@reports/test-support';
import { tailEvents } from '../src/operations/tail.js';
import { replayProjection } from '../src/operations/replay.js';
import { formatPipeline, pipelineView } from '../src/operations/pipeline.js';
import { startProjector } from '../src/projection/projector.js';
import { formatVerify, verifyOutputs } from '../src/operations/verify.js';

let db: TestDatabase;
let server: TestNatsServer;
let nats: Nats;
const tenantA = randomUUID();
const tenantB = randomUUID();
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startNatsServer();
  nats = await connectNats(server.url, 'operations-test');
  await provisionReportsStream(nats.jsm, 1);
  for (const t of [tenantA, tenantB])
    await db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 't', 'personal')`, [t]);
});
afterAll(async () => {
  await nats?.nc.close();
  await server?.stop();
  await db?.drop();
});

async function givenReport(tenant: string): Promise<EventOrigin> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key)
     VALUES ($1, $2, 'r.html', 'text/html', 'html', 10, $3, 'k')`,
    [id, tenant, 'a'.repeat(64)],
  );
  return {
    tenant_id: tenant,
    report_id: id,
    target_kind: 'report',
    target_id: id,
    generation: 1,
    correlation_id: id,
    causation_id: null,
  };
}

async function publish<K extends EventType>(
  origin: EventOrigin,
  type: K,
  data: EventOf<K>['data'],
): Promise<void> {
  await publishEvent(
    nats.js,
    newEvent(type, origin, data),
    `${origin.target_id}:${type}:${randomUUID()}`,
  );
}

/** Upload to ready, as the stages would publish it. */
async function givenProcessedReport(tenant: string, fail = false): Promise<EventOrigin> {
  const o = await givenReport(tenant);
  await publish(o, 'ReportUploaded', {
    filename: 'r.html',
    content_type: 'text/html',
    size_bytes: 10,
    object_key: 'k',
    sha256: 'a'.repeat(64),
    title: null,
  });
  await publish(o, 'StageStarted', { stage: 'scan', attempt: 1 });
  await publish(o, 'ReportScanned', { document_kind: 'html', page_count: null, cost_cents: 1 });
  if (fail) {
    await publish(o, 'StageFailed', { stage: 'parse', error: 'corrupt: no body', attempts: 1 });
    return o;
  }
  await publish(o, 'ReportParsed', {
    sections: 3,
    figures: 0,
    tables: 0,
    pages: null,
    cost_cents: 2,
  });
  await publish(o, 'FiguresAnnotated', { figures: 0, annotated: 0, cost_cents: 0 });
  await publish(o, 'ChunksEmbedded', {
    chunks: 3,
    embedded: 3,
    embedding_status: 'complete',
    embedding_model: 'local-hash-1536',
    cost_cents: 4,
  });
  await publish(o, 'ReportReady', { cost_cents: 0 });
  return o;
}

async function tail(opts: Parameters<typeof tailEvents>[1]): Promise<string[]> {
  const lines: string[] = [];
  await tailEvents(nats, { follow: false, ...opts }, (l) => lines.push(l));
  return lines;
}

describe('events tail', () => {
  let a: EventOrigin;
  let b: EventOrigin;
  beforeAll(async () => {
    a = await givenProcessedReport(tenantA);
    b = await givenProcessedReport(tenantB, true);
  });

  it('prints one line per event of a report, in stream order', async () => {
    const lines = await tail({ report: a.report_id, since: new Date(Date.now() - 3600_000) });
    process.stdout.write(
      `events tail --report ${a.report_id} --since 1h --no-follow:\n${lines.join('\n')}\n`,
    );
    expect(lines.map((l) => l.split(/\s+/)[2])).toEqual([
      'ReportUploaded',
      'StageStarted',
      'ReportScanned',
      'ReportParsed',
      'FiguresAnnotated',
      'ChunksEmbedded',
      'ReportReady',
    ]);
    expect(lines.every((l) => l.includes(`report=${a.report_id.slice(0, 8)}`))).toBe(true);
  });

  it('filters by tenant and by several types', async () => {
    const lines = await tail({
      tenant: tenantB,
      types: ['StageFailed', 'ReportReady'],
      since: new Date(Date.now() - 3600_000),
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/StageFailed .* stage=parse error="corrupt: no body" attempts=1$/);
  });

  it('shows nothing from before --since', async () => {
    expect(await tail({ report: a.report_id, since: new Date(Date.now() + 60_000) })).toEqual([]);
  });

  it('writes JSON lines with --json', async () => {
    const [first] = await tail({ report: b.report_id, json: true, since: new Date(0) });
    const parsed = JSON.parse(first!) as { seq: number; subject: string; event: { type: string } };
    expect(parsed.event.type).toBe('ReportUploaded');
    expect(parsed.subject).toBe(`reports.${tenantB}.${b.report_id}.ReportUploaded`);
  });

  it('follows new events until stopped', async () => {
    const lines: string[] = [];
    const abort = new AbortController();
    const following = tailEvents(nats, { tenant: tenantA, signal: abort.signal }, (l) => {
      lines.push(l);
      abort.abort();
    });
    // The ordered consumer starts at "new": publish once it is listening.
    await new Promise((r) => setTimeout(r, 500));
    const c = await givenReport(tenantA);
    await publish(c, 'StageStarted', { stage: 'scan', attempt: 1 });
    await following;
    expect(lines[0]).toContain(`report=${c.report_id.slice(0, 8)}`);
  });
});

describe('events replay', () => {
  it('rebuilds a status projection that was lost, from the stream alone', async () => {
    const ready = await givenProcessedReport(tenantA);
    const failed = await givenProcessedReport(tenantA, true);
    // The projection never saw these events (no projector ran): the rows still say uploaded.
    const before = await db.pool.query(`SELECT status FROM reports WHERE id = $1`, [
      ready.report_id,
    ]);
    expect(before.rows[0].status).toBe('uploaded');

    const result = await replayProjection(nats, db.pool);
    expect(result.applied).toBeGreaterThan(0);

    const { rows } = await db.pool.query(
      `SELECT id, status, ingestion_error, ingestion_cost_cents, ingestion_started_at, ingestion_finished_at
         FROM reports WHERE id = ANY($1)`,
      [[ready.report_id, failed.report_id]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ready.report_id)).toMatchObject({
      status: 'ready',
      ingestion_error: null,
      ingestion_cost_cents: 7,
    });
    expect(byId.get(ready.report_id).ingestion_finished_at).not.toBeNull();
    expect(byId.get(failed.report_id)).toMatchObject({
      status: 'failed',
      ingestion_error: 'parse failed: corrupt: no body',
    });
  });

  it('gives the same rows as the live projector, and a second replay changes nothing', async () => {
    const o = await givenProcessedReport(tenantB);
    const projector = await startProjector({
      nats,
      pool: db.pool,
      logger,
      ackWaitMs: 5000,
      maxDeliver: 3,
    });
    const read = () =>
      db.pool
        .query(
          `SELECT status, ingestion_started_at, ingestion_finished_at, ingestion_error, stage_costs,
                  ingestion_cost_cents, generation, projection_seq FROM reports WHERE id = $1`,
          [o.report_id],
        )
        .then((r) => r.rows[0]);
    const deadline = Date.now() + 20_000;
    while ((await read()).status !== 'ready') {
      if (Date.now() > deadline) throw new Error('the projector did not reach ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    await projector.stop();
    const live = await read();
    await db.pool.query(
      `UPDATE reports SET status = 'parsed', ingestion_error = 'bogus' WHERE id = $1`,
      [o.report_id],
    );
    await replayProjection(nats, db.pool, { report: o.report_id });
    expect(await read()).toEqual(live);
    await replayProjection(nats, db.pool, { tenant: tenantB });
    expect(await read()).toEqual(live);
  });
});

describe('events pipeline', () => {
  it('shows per stage the pending, in-flight, redelivered and failed work', async () => {
    for (const stage of ['scan', 'parse', 'annotate', 'embed', 'finalize'] as const)
      await provisionStage(nats, stage, { ackWaitMs: 5000, maxDeliver: 3, concurrency: 1 });
    // One message of the scan consumer taken and not acknowledged: in flight.
    const scan = await nats.js.consumers.get('REPORTS', 'stage-scan');
    const taken = await scan.next({ expires: 5000 });
    expect(taken).not.toBeNull();
    await db.pool.query(
      `INSERT INTO stage_runs (id, tenant_id, report_id, target_kind, target_id, stage, generation, attempt,
         outcome, error, started_at, finished_at, duration_ms)
       VALUES ($1, $2, $3, 'report', $3, 'parse', 1, 1, 'retry', 'timeout', now(), now(), 120)`,
      [randomUUID(), tenantA, randomUUID()],
    );
    const rows = await pipelineView(nats, db.pool, 24);
    process.stdout.write(`events pipeline:\n${formatPipeline(rows, 24).join('\n')}\n`);
    const scanRow = rows.find((r) => r.stage === 'scan')!;
    const uploads = (await tail({ types: ['ReportUploaded'], since: new Date(0) })).length;
    expect(scanRow.in_flight).toBe(1);
    expect(scanRow.pending).toBe(uploads - 1);
    expect(scanRow.redelivered).toBe(0);
    const parseRow = rows.find((r) => r.stage === 'parse')!;
    expect(parseRow.failed).toBeGreaterThanOrEqual(1);
    expect(parseRow.runs?.retry).toBe(1);
    expect(rows.map((r) => r.stage)).toEqual([
      'scan',
      'parse',
      'annotate',
      'embed',
      'finalize',
      'projection',
    ]);
    taken!.nak();
  });
});

describe('events verify', () => {
  /** A processed report whose rows are what its events say: 3 sections, 3 embedded chunks. */
  async function givenWholeReport(): Promise<EventOrigin> {
    const o = await givenProcessedReport(tenantB);
    for (let i = 0; i < 3; i += 1) {
      const section = randomUUID();
      await db.pool.query(
        `INSERT INTO sections (id, tenant_id, report_id, target_id, section_name, section_slug, level, order_in_doc, markdown)
         VALUES ($1, $2, $3, $3, 'S', 's', 1, $4, 'text')`,
        [section, tenantB, o.report_id, i],
      );
      await db.pool.query(
        `INSERT INTO chunks (id, tenant_id, report_id, target_id, section_id, content, content_tokens, order_in_doc, embedding)
         VALUES ($1, $2, $3, $3, $4, 'text', 1, $5, array_fill(0.1::real, ARRAY[1536])::vector)`,
        [randomUUID(), tenantB, o.report_id, section, i],
      );
    }
    await db.pool.query(
      `UPDATE reports SET parsed_metadata = '{"embedding_status": "complete"}' WHERE id = $1`,
      [o.report_id],
    );
    await replayProjection(nats, db.pool, { report: o.report_id });
    return o;
  }

  it('finds nothing to report when every row agrees with its events', async () => {
    const o = await givenWholeReport();
    const result = await verifyOutputs(nats, db.pool, { report: o.report_id });
    expect(result).toMatchObject({ targets: 1, disagreements: [] });
    expect(formatVerify(result).at(-1)).toMatch(
      /^verified 1 targets against \d+ events: 0 disagree$/,
    );
  });

  it('lists a ready report whose chunks are gone, with what the events say', async () => {
    const o = await givenWholeReport();
    await db.pool.query('DELETE FROM chunks WHERE target_id = $1', [o.target_id]);
    const result = await verifyOutputs(nats, db.pool, { report: o.report_id });
    expect(result.disagreements).toEqual([
      {
        tenant_id: tenantB,
        report_id: o.report_id,
        target_kind: 'report',
        target_id: o.target_id,
        status: 'ready',
        problems: ['chunks: 0 rows, the events say 3', 'embedded chunks: 0 rows, the events say 3'],
      },
    ]);
    expect(formatVerify(result)[0]).toContain(
      `report ${o.report_id} tenant ${tenantB} (ready): chunks: 0 rows`,
    );
  });

  it('lists a report whose status is not what its events say', async () => {
    const o = await givenWholeReport();
    await db.pool.query(`UPDATE reports SET status = 'parsed' WHERE id = $1`, [o.report_id]);
    const result = await verifyOutputs(nats, db.pool, { report: o.report_id });
    expect(result.disagreements[0]?.problems).toEqual(['status parsed, the events say ready']);
  });
});
