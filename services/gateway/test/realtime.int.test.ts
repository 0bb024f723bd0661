import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS_STREAM } from '@reports/contracts';
import { buildHtml, sampleReportSpec } from '@reports/test-support';
import {
  multipart,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

/**
 * The realtime channel of a report (GET /ingest/{id}/events): the id is read as
 * /status reads it, whatever its case (docs/adr/098), and a closed channel leaves
 * no consumer behind on the stream (docs/adr/099).
 */
let gw: TestGateway;
let alice: TestSession;
let address: string;
let reportId: string;

beforeAll(async () => {
  gw = await startTestGateway();
  alice = await gw.signIn('alice@example.com');
  const body = await multipart(
    {},
    { bytes: buildHtml(sampleReportSpec({ sections: 1 })), filename: 'a.html', type: 'text/html' },
  );
  const up = await gw.app.inject({
    method: 'POST',
    url: '/ingest',
    payload: body.payload,
    headers: { ...alice.headers(), ...body.headers },
    remoteAddress: alice.ip,
  });
  expect(up.statusCode).toBe(202);
  reportId = up.json<{ id: string }>().id;
  address = await gw.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await gw?.close();
});

/** Opens the channel and reads until `until` shows up; returns what was read and the closer. */
async function openChannel(id: string, until: string) {
  const controller = new AbortController();
  const res = await fetch(`${address}/ingest/${id}/events`, {
    headers: alice.headers(),
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let received = '';
  while (!received.includes(until)) {
    const { value, done } = await reader.read();
    if (done) break;
    received += new TextDecoder().decode(value);
  }
  return { received, close: () => controller.abort() };
}

async function consumerCount(): Promise<number> {
  return (await gw.nats.jsm.streams.info(REPORTS_STREAM)).state.consumer_count;
}

describe('GET /ingest/{id}/events', () => {
  it('streams the report’s events for an upper-case id, as /status answers for it', async () => {
    const upper = reportId.toUpperCase();
    const status = await gw.app.inject({
      url: `/ingest/${upper}/status`,
      headers: alice.headers(),
    });
    expect(status.statusCode).toBe(200);
    const channel = await openChannel(upper, 'event: ReportUploaded');
    channel.close();
    expect(channel.received).toContain('event: ReportUploaded');
    expect(channel.received).toContain(`"target_id":"${reportId}"`);
  }, 15_000);

  it('deletes its stream consumer when the client goes away', async () => {
    // The first test's channel is being deleted too: count once that has settled.
    let before = await consumerCount();
    for (let settled = 0; settled < 5;) {
      await new Promise((r) => setTimeout(r, 200));
      const now = await consumerCount();
      settled = now === before ? settled + 1 : 0;
      before = now;
    }
    const channels = await Promise.all(
      [1, 2, 3].map(() => openChannel(reportId, 'event: ReportUploaded')),
    );
    expect(await consumerCount()).toBe(before + 3);
    for (const c of channels) c.close();
    const deadline = Date.now() + 10_000;
    while ((await consumerCount()) > before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await consumerCount()).toBe(before);
  }, 20_000);
});
