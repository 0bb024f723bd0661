import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHtml } from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import { getJson, signIn, upload, waitForStatus, type Session } from './support/client.js';

// With NATS down, the routes that need it answer 503 after a short grace (2 s) instead of
// waiting out their request timeouts (retrieval 30 s, uploads 10 s), and nothing is left behind.
// The bound asserted is far above the grace and far below the old waits, so a loaded machine
// does not make it flaky while the old behaviour fails it.
const OLD_UPLOAD_WAIT_MS = 10_000;

let system: RunningSystem;
let user: Session;
let reportId: string;

beforeAll(async () => {
  system = await startSystem();
  user = await signIn(system, 'natsdown@example.com');
  const res = await upload(system, user, {
    bytes: buildHtml({
      title: 'Survey of 9 Quay Street',
      sections: [
        { heading: 'Roof', paragraphs: ['The slate roof covering is in fair condition.'] },
      ],
    }),
    filename: 'survey.html',
    type: 'text/html',
  });
  expect(res.status).toBe(202);
  reportId = res.body.id;
  await waitForStatus(system, user, reportId, 'ready', 90_000);
});
afterAll(async () => {
  await system?.stop();
});

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = Date.now();
  const value = await fn();
  return { ms: Date.now() - started, value };
}

function retrieve() {
  return getJson<{ code?: string; chunks?: unknown[] }>(system, user, '/retrieve', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'what is the condition of the roof covering',
      scope: { type: 'folder', report_id: reportId },
      top_k: 3,
    }),
  });
}

async function storedObjects(): Promise<number> {
  const dir = fileURLToPath(system.env.OBJECT_STORE_URL!);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).length;
}

describe('NATS down', () => {
  it('answers 503 at once on retrieval, uploads and health, keeps nothing, and recovers', async () => {
    expect((await retrieve()).status).toBe(200);
    const reportsBefore = await system.db.pool.query('SELECT count(*)::int AS n FROM reports');
    const objectsBefore = await storedObjects();

    await system.nats.halt('SIGKILL');

    const retrieval = await timed(retrieve);
    expect(retrieval.value.status).toBe(503);
    expect(retrieval.value.body.code).toBe('service_unavailable');
    expect(retrieval.ms).toBeLessThan(OLD_UPLOAD_WAIT_MS);

    const ingest = await timed(() =>
      upload(system, user, {
        bytes: buildHtml({ title: 'Second', sections: [{ heading: 'A', paragraphs: ['b'] }] }),
        filename: 'second.html',
        type: 'text/html',
      }),
    );
    expect(ingest.value.status).toBe(503);
    expect(ingest.ms).toBeLessThan(OLD_UPLOAD_WAIT_MS);
    const reportsAfter = await system.db.pool.query('SELECT count(*)::int AS n FROM reports');
    expect(reportsAfter.rows).toEqual(reportsBefore.rows);
    expect(await storedObjects()).toBe(objectsBefore);

    const health = await timed(() =>
      getJson<{ dependencies: { nats: { status: string } } }>(system, null, '/health'),
    );
    expect(health.value.status).toBe(503);
    expect(health.value.body.dependencies.nats.status).toBe('down');

    await system.nats.restart();
    const deadline = Date.now() + 60_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await retrieve()).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
  });
});
