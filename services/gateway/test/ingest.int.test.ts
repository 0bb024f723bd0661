import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS_STREAM, parseEvent } from '@reports/contracts';
import { buildHtml, buildPdf, sampleReportSpec } from '@reports/test-support';
import {
  multipart,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

let gw: TestGateway;
let alice: TestSession;
const html = buildHtml(sampleReportSpec({ sections: 2 }));
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

beforeAll(async () => {
  gw = await startTestGateway();
  alice = await gw.signIn('alice@example.com');
});
afterAll(async () => {
  await gw?.close();
});

async function post(
  session: TestSession | null,
  body: { payload: Buffer; headers: Record<string, string> },
  ip = session?.ip ?? '10.1.1.1',
) {
  return gw.app.inject({
    method: 'POST',
    url: '/ingest',
    payload: body.payload,
    headers: { ...(session ? session.headers() : {}), ...body.headers },
    remoteAddress: ip,
  });
}

async function storedFiles(): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out.push(path.relative(gw.objectsDir, full));
    }
  }
  await walk(path.join(gw.objectsDir, 'objects'));
  return out;
}

describe('POST /ingest', () => {
  it('answers 202 with the report, stores the file under the tenant, and publishes ReportUploaded', async () => {
    const res = await post(
      alice,
      await multipart(
        { title: 'Acacia Avenue' },
        { bytes: html, filename: 'survey.html', type: 'text/html' },
      ),
    );
    expect(res.statusCode).toBe(202);
    const body = res.json<{ id: string }>();
    expect(body).toEqual({
      id: expect.any(String),
      status: 'uploaded',
      filename: 'survey.html',
      size_bytes: html.length,
      content_type: 'text/html',
      title: 'Acacia Avenue',
    });
    const key = `tenants/${alice.user.active_tenant_id}/reports/${body.id}/original/source.html`;
    expect(Buffer.compare(await gw.objectStore.getBuffer(key), html)).toBe(0);
    const msg = await gw.nats.jsm.streams.getMessage(REPORTS_STREAM, {
      last_by_subj: `reports.${alice.user.active_tenant_id}.${body.id}.ReportUploaded`,
    });
    const event = parseEvent(msg!.json());
    expect(event).toMatchObject({
      type: 'ReportUploaded',
      report_id: body.id,
      target_id: body.id,
      generation: 1,
    });
    expect(msg!.header?.get('Nats-Msg-Id')).toBe(`${body.id}:upload:1`);
    const status = await gw.app.inject({
      url: `/ingest/${body.id}/status`,
      headers: alice.headers(),
      remoteAddress: alice.ip,
    });
    expect(status.json()).toMatchObject({
      id: body.id,
      status: 'uploaded',
      ingestion_error: null,
      ingestion_cost_cents: 0,
    });
  });

  it('answers 401 without a token', async () => {
    const res = await post(null, await multipart({}, { bytes: html, filename: 'a.html' }));
    expect(res.statusCode).toBe(401);
  });

  it('answers 400 empty_file for an empty file', async () => {
    const res = await post(
      alice,
      await multipart(
        {},
        { bytes: Buffer.alloc(0), filename: 'empty.pdf', type: 'application/pdf' },
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'empty_file' });
  });

  it('answers 400 missing_file when no file part is sent', async () => {
    const res = await post(alice, await multipart({ title: 'no file' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'missing_file' });
  });

  it('answers 415 for bytes that are none of the allowed types', async () => {
    const res = await post(
      alice,
      await multipart(
        {},
        { bytes: Buffer.from('just some text\n'), filename: 'notes.txt', type: 'text/plain' },
      ),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers 415 when the bytes do not match the declared type', async () => {
    const res = await post(
      alice,
      await multipart({}, { bytes: PNG, filename: 'scan.pdf', type: 'application/pdf' }),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json<{ detail: string }>().detail).toMatch(/declared as PDF but its content is PNG/);
  });

  it('answers 415 for a body that is not multipart', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/ingest',
      payload: { file: 'x' },
      headers: alice.headers(),
      remoteAddress: alice.ip,
    });
    expect(res.statusCode).toBe(415);
  });

  it('answers 413 for a file over 50 MB and leaves nothing in storage', async () => {
    const before = await storedFiles();
    const big = Buffer.alloc(50 * 1024 * 1024 + 1, 0x20);
    html.copy(big);
    const res = await post(
      alice,
      await multipart({}, { bytes: big, filename: 'huge.html', type: 'text/html' }),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'file_too_large' });
    expect(await storedFiles()).toEqual(before);
    const { rows } = await gw.db.pool.query(
      "SELECT count(*)::int AS n FROM reports WHERE filename = 'huge.html'",
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('keeps a hostile filename out of the object key and strips its path', async () => {
    const res = await post(
      alice,
      await multipart(
        {},
        { bytes: html, filename: '../../etc/\u202epasswd.html', type: 'text/html' },
      ),
    );
    expect(res.statusCode).toBe(202);
    expect(res.json<{ filename: string }>().filename).toBe('passwd.html');
    expect((await storedFiles()).every((f) => !f.includes('..') && !f.includes('passwd'))).toBe(
      true,
    );
  });

  it('limits uploads to 20 per hour per client, with Retry-After', async () => {
    const ip = '10.99.0.1';
    const empty = await multipart({}, { bytes: Buffer.alloc(0), filename: 'e.html' });
    for (let i = 0; i < 20; i++) expect((await post(alice, empty, ip)).statusCode).toBe(400);
    const limited = await post(alice, empty, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(alice, empty, '10.99.0.2')).statusCode).toBe(400);
  });
});

describe('POST /ingest with OCR_PROVIDER=mistral and no MISTRAL_API_KEY', () => {
  let mistralGw: TestGateway;
  let bob: TestSession;
  beforeAll(async () => {
    mistralGw = await startTestGateway({ OCR_PROVIDER: 'mistral' });
    bob = await mistralGw.signIn('bob@example.com');
  });
  afterAll(async () => {
    await mistralGw?.close();
  });

  it('answers 503 ocr_unavailable for a PDF, and still accepts HTML', async () => {
    const pdf = await buildPdf(sampleReportSpec({ sections: 1 }));
    const send = async (bytes: Buffer, filename: string) => {
      const body = await multipart({}, { bytes, filename });
      return mistralGw.app.inject({
        method: 'POST',
        url: '/ingest',
        payload: body.payload,
        headers: { ...bob.headers(), ...body.headers },
        remoteAddress: bob.ip,
      });
    };
    const refused = await send(pdf, 'r.pdf');
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'ocr_unavailable' });
    expect((await send(PNG, 'photo.png')).statusCode).toBe(503);
    expect((await send(html, 'r.html')).statusCode).toBe(202);
  });
});

describe('reads of a report', () => {
  it('answer 404 for an id that is not a uuid, and for an unknown one', async () => {
    for (const url of [
      '/ingest/not-a-uuid/status',
      '/ingest/00000000-0000-4000-8000-000000000000/status',
    ]) {
      const res = await gw.app.inject({ url, headers: alice.headers(), remoteAddress: alice.ip });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
  });
});

describe('operations endpoints', () => {
  it('GET /health reports each dependency up', async () => {
    const res = await gw.app.inject({ url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      dependencies: {
        postgres: { status: 'up' },
        nats: { status: 'up' },
        object_store: { status: 'up' },
      },
    });
  });

  it('serves the OpenAPI document, /docs and /redoc', async () => {
    const doc = await gw.app.inject({ url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/ingest',
        '/ingest/{report_id}/status',
        '/ingest/{report_id}/events',
        '/me',
        '/health',
      ]),
    );
    expect((await gw.app.inject({ url: '/docs/' })).statusCode).toBe(200);
    const redoc = await gw.app.inject({ url: '/redoc' });
    expect(redoc.body).toContain('/openapi.json');
    // Every asset the reference page loads is served by the gateway itself.
    const assets = [...redoc.body.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const url of assets) expect((await gw.app.inject({ url })).statusCode, url).toBe(200);
  });
});

describe('when NATS is down', () => {
  it('refuses the upload with 503 and keeps no report record, so nothing accepted is lost', async () => {
    const down = await startTestGateway();
    try {
      const carol = await down.signIn('carol@example.com');
      await down.natsServer.stop();
      const body = await multipart({}, { bytes: html, filename: 'lost.html', type: 'text/html' });
      const res = await down.app.inject({
        method: 'POST',
        url: '/ingest',
        payload: body.payload,
        headers: { ...carol.headers(), ...body.headers },
        remoteAddress: carol.ip,
      });
      expect(res.statusCode).toBe(503);
      const { rows } = await down.db.pool.query('SELECT count(*)::int AS n FROM reports');
      expect(rows[0]).toEqual({ n: 0 });
    } finally {
      await down.close().catch(() => undefined);
    }
  }, 40_000);
});

describe('shutdown', () => {
  it('ends open realtime channels so the gateway can close', async () => {
    const own = await startTestGateway();
    const dave = await own.signIn('dave@example.com');
    const body = await multipart({}, { bytes: html, filename: 'open.html', type: 'text/html' });
    const up = await own.app.inject({
      method: 'POST',
      url: '/ingest',
      payload: body.payload,
      headers: { ...dave.headers(), ...body.headers },
      remoteAddress: dave.ip,
    });
    const address = await own.app.listen({ port: 0, host: '127.0.0.1' });
    // No stage services run here: the report stays `uploaded` and the channel stays open.
    const res = await fetch(`${address}/ingest/${up.json<{ id: string }>().id}/events`, {
      headers: dave.headers(),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let received = '';
    while (!received.includes('event: ReportUploaded'))
      received += new TextDecoder().decode((await reader.read()).value);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(5000);
    let ended = false;
    while (!ended) ended = (await reader.read()).done;
    expect(ended).toBe(true);
  });
});
