import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Figure } from '@reports/contracts';
import { buildHtml, sampleReportSpec } from '@reports/test-support';
import { tinyPng } from '@reports/test-support';
import { startS3rver, type S3rverHandle } from '@reports/test-support';
import { fileSignature } from '../src/files/signing.js';
import {
  multipart,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

const SECRET = 'figures-test-file-secret';
const original = tinyPng(64, 48, [200, 60, 40]);
const thumbnail = tinyPng(16, 12, [200, 60, 40]);

async function uploadReport(gw: TestGateway, session: TestSession): Promise<string> {
  const body = await multipart(
    {},
    { bytes: buildHtml(sampleReportSpec()), filename: 'r.html', type: 'text/html' },
  );
  const res = await gw.app.inject({
    method: 'POST',
    url: '/ingest',
    payload: body.payload,
    headers: { ...session.headers(), ...body.headers },
    remoteAddress: session.ip,
  });
  expect(res.statusCode).toBe(202);
  return res.json<{ id: string }>().id;
}

/** A figure as the parse and annotate stages leave it: original, thumbnail, annotation. */
async function givenFigure(
  gw: TestGateway,
  tenantId: string,
  reportId: string,
  opts: { order: number; attachmentId?: string; thumbnail?: boolean },
): Promise<{ id: string; originalKey: string; thumbnailKey: string | null }> {
  const id = randomUUID();
  const base = `tenants/${tenantId}/reports/${reportId}/figures/${id}`;
  const originalKey = `${base}/original.png`;
  const thumbnailKey = opts.thumbnail === false ? null : `${base}/thumbnail.png`;
  await gw.objectStore.put(originalKey, original, { contentType: 'image/png' });
  if (thumbnailKey) await gw.objectStore.put(thumbnailKey, thumbnail, { contentType: 'image/png' });
  await gw.db.pool.query(
    `INSERT INTO figures (id, tenant_id, report_id, attachment_id, target_id, section_name, page_number, order_in_doc,
       object_key, thumbnail_key, mime_type, width, height, annotation_source, annotation_quality_score, annotation_json)
     VALUES ($1,$2,$3,$4,$5,'Roof',3,$6,$7,$8,'image/png',64,48,'gemini',0.81,$9)`,
    [
      id,
      tenantId,
      reportId,
      opts.attachmentId ?? null,
      opts.attachmentId ?? reportId,
      opts.order,
      originalKey,
      thumbnailKey,
      JSON.stringify({ image_type: 'photo', summary: 'Slate roof.', entities: ['slate'] }),
    ],
  );
  return { id, originalKey, thumbnailKey };
}

async function waitUntil(epochSeconds: number): Promise<void> {
  while (Date.now() / 1000 <= epochSeconds) await new Promise((r) => setTimeout(r, 100));
}

describe('GET /ingest/{id}/figures on the local object store', () => {
  let gw: TestGateway;
  let alice: TestSession;
  let bob: TestSession;
  let reportId: string;
  let tenantId: string;
  let mainFigure: { id: string; originalKey: string; thumbnailKey: string | null };
  let attachmentFigure: { id: string };

  beforeAll(async () => {
    gw = await startTestGateway({ FILE_URL_SECRET: SECRET, FILE_URL_TTL_SECONDS: '600' });
    alice = await gw.signIn('alice@example.com');
    bob = await gw.signIn('bob@example.com');
    tenantId = alice.user.active_tenant_id;
    reportId = await uploadReport(gw, alice);
    const attachmentId = randomUUID();
    await gw.db.pool.query(
      `INSERT INTO attachments (id, tenant_id, report_id, source, filename, content_type, document_kind, size_bytes,
         sha256, object_key) VALUES ($1,$2,$3,'user_upload','a.png','image/png','png',1,$4,'k')`,
      [attachmentId, tenantId, reportId, 'a'.repeat(64)],
    );
    attachmentFigure = await givenFigure(gw, tenantId, reportId, {
      order: 0,
      attachmentId,
      thumbnail: false,
    });
    mainFigure = await givenFigure(gw, tenantId, reportId, { order: 0 });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const list = (session: TestSession, id: string, query = '') =>
    gw.app.inject({
      method: 'GET',
      url: `/ingest/${id}/figures${query}`,
      headers: session.headers(),
      remoteAddress: session.ip,
    });

  it('lists the figures of the main file first, then those of attachments, with the spec fields', async () => {
    const res = await list(alice, reportId);
    expect(res.statusCode).toBe(200);
    const figures = res.json<Figure[]>();
    expect(figures.map((f) => f.id)).toEqual([mainFigure.id, attachmentFigure.id]);
    expect(figures[0]).toMatchObject({
      report_id: reportId,
      attachment_id: null,
      section_name: 'Roof',
      page_number: 3,
      annotation_source: 'gemini',
      annotation_quality_score: expect.closeTo(0.81, 5),
      annotation_json: { image_type: 'photo', summary: 'Slate roof.', entities: ['slate'] },
    });
    expect(figures[1]!.report_id).toBe(reportId);
  });

  it('gives signed links to the thumbnail and the original that serve the stored bytes', async () => {
    const [figure] = (await list(alice, reportId)).json<Figure[]>();
    const thumbUrl = new URL(figure!.storage_url);
    expect(thumbUrl.origin).toBe('http://gateway.test');
    expect(thumbUrl.pathname).toBe(`/files/${mainFigure.thumbnailKey}`);
    const thumb = await gw.app.inject({ method: 'GET', url: thumbUrl.pathname + thumbUrl.search });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    expect(thumb.headers['x-content-type-options']).toBe('nosniff');
    expect(thumb.rawPayload).toEqual(thumbnail);
    const originalUrl = new URL(figure!.original_url);
    const full = await gw.app.inject({
      method: 'GET',
      url: originalUrl.pathname + originalUrl.search,
    });
    expect(full.rawPayload).toEqual(original);
    expect(Date.parse(figure!.url_expires_at) - Date.now()).toBeGreaterThan(500_000);
  });

  it('links the original as the thumbnail when a figure has no thumbnail', async () => {
    const figures = (await list(alice, reportId)).json<Figure[]>();
    expect(figures[1]!.storage_url).toBe(figures[1]!.original_url);
  });

  it('gives links that stop working when they expire', async () => {
    const [figure] = (await list(alice, reportId, '?ttl_seconds=1')).json<Figure[]>();
    const url = new URL(figure!.storage_url);
    expect(Number(url.searchParams.get('expires')) * 1000).toBe(Date.parse(figure!.url_expires_at));
    // Valid through its expiry second, refused from the next one on.
    await waitUntil(Number(url.searchParams.get('expires')) + 1);
    const res = await gw.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'invalid_file_signature', detail: 'the link has expired' });
  });

  it('never lets a client ask for links longer than configured', async () => {
    const [figure] = (await list(alice, reportId, '?ttl_seconds=604800')).json<Figure[]>();
    expect(Date.parse(figure!.url_expires_at) - Date.now()).toBeLessThanOrEqual(601_000);
  });

  it('answers 403 to a link whose signature or expiry was tampered with', async () => {
    const [figure] = (await list(alice, reportId)).json<Figure[]>();
    const url = new URL(figure!.storage_url);
    url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect(
      (await gw.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode,
    ).toBe(403);
    const bare = new URL(figure!.storage_url);
    expect((await gw.app.inject({ method: 'GET', url: bare.pathname })).statusCode).toBe(403);
  });

  it('does not serve another tenant’s file through a link signed for a different key', async () => {
    const [figure] = (await list(alice, reportId)).json<Figure[]>();
    const url = new URL(figure!.storage_url);
    const other = `/files/tenants/${bob.user.active_tenant_id}/reports/x/figures/y/thumbnail.png`;
    expect((await gw.app.inject({ method: 'GET', url: other + url.search })).statusCode).toBe(403);
  });

  it('serves nothing outside tenants/, even with a valid signature', async () => {
    const expires = Math.floor(Date.now() / 1000) + 60;
    for (const key of ['meta/secret.json', '.tmp/upload', 'tenants/../etc/passwd']) {
      const sig = fileSignature(Buffer.from(SECRET), key, expires);
      const res = await gw.app.inject({
        method: 'GET',
        url: `/files/${key}?expires=${expires}&sig=${sig}`,
      });
      expect(res.statusCode, key).toBe(404);
    }
  });

  it('answers 404 for a validly signed link to a file that is not there', async () => {
    const key = `tenants/${tenantId}/reports/${reportId}/figures/missing.png`;
    const expires = Math.floor(Date.now() / 1000) + 60;
    const sig = fileSignature(Buffer.from(SECRET), key, expires);
    const res = await gw.app.inject({
      method: 'GET',
      url: `/files/${key}?expires=${expires}&sig=${sig}`,
    });
    expect(res.statusCode).toBe(404);
  });

  it('answers 404 for a report of another tenant, and 401 without a token', async () => {
    const res = await list(bob, reportId);
    expect(res.statusCode).toBe(404);
    expect(res.json<{ code: string }>().code).toBe('not_found');
    expect((await list(alice, randomUUID())).statusCode).toBe(404);
    expect(
      (await gw.app.inject({ method: 'GET', url: `/ingest/${reportId}/figures` })).statusCode,
    ).toBe(401);
  });

  it('lists nothing for a report without figures', async () => {
    const other = await uploadReport(gw, alice);
    expect((await list(alice, other)).json()).toEqual([]);
  });
});

describe('GET /ingest/{id}/figures on the S3 object store', () => {
  let s3: S3rverHandle;
  let gw: TestGateway;
  let alice: TestSession;

  beforeAll(async () => {
    s3 = await startS3rver();
    gw = await startTestGateway({
      OBJECT_STORE_URL: 's3://figures-test',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_REGION: s3.region,
    });
    alice = await gw.signIn('carol@example.com');
  });
  afterAll(async () => {
    await gw?.close();
    await s3?.close();
  });

  it('gives presigned S3 links that fetch the objects and expire', async () => {
    const tenantId = alice.user.active_tenant_id;
    const reportId = await uploadReport(gw, alice);
    const figure = await givenFigure(gw, tenantId, reportId, { order: 0 });
    const res = await gw.app.inject({
      method: 'GET',
      url: `/ingest/${reportId}/figures?ttl_seconds=2`,
      headers: alice.headers(),
      remoteAddress: alice.ip,
    });
    const [listed] = res.json<Figure[]>();
    const url = new URL(listed!.storage_url);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.pathname).toBe(`/figures-test/${figure.thumbnailKey}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('2');
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(thumbnail);
    await waitUntil(Date.parse(listed!.url_expires_at) / 1000 + 1);
    expect((await fetch(url)).status).toBe(403);
  });
});
