import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  partnerStatusCanonicalString,
  partnerUploadCanonicalString,
  type Attachment,
  type Figure,
  type PartnerAttachmentStatus,
} from '@reports/contracts';
import {
  RICH_ANNOTATION,
  buildPdf,
  defaultOcrPages,
  sampleReportSpec,
  startFakeMistral,
  startFakeOpenAi,
  tinyPng,
  type FakeOcrDocument,
  type FakeServer,
} from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import { getJson, readEvents, signIn, upload, type Session } from './support/client.js';

const PARTNER_SECRET = 'e2e-partner-secret';
const OPENAI_ANNOTATION = {
  image_type: 'diagram',
  summary:
    'Cross-section of the pitched roof showing rafters, a felt underlay and slate battens, with dimensions.',
  entities: ['rafter', 'felt underlay', 'slate batten'],
};

let system: RunningSystem;
let mistral: FakeServer;
let openai: FakeServer;
let alice: Session;
let bob: Session;
let reportId: string;
let pdf: Buffer;

/** Mistral reads every page with a photo: richly annotated on odd pages, thinly on even ones. */
function ocrPages(doc: FakeOcrDocument) {
  return defaultOcrPages(doc).map((page, i) => ({
    ...page,
    images: page.images.map((image) => ({
      ...image,
      annotation: i % 2 === 0 ? RICH_ANNOTATION : { image_type: 'photo', summary: 'Roof.' },
    })),
  }));
}

beforeAll(async () => {
  mistral = await startFakeMistral({ ocrPages });
  openai = await startFakeOpenAi({ chatContent: () => JSON.stringify(OPENAI_ANNOTATION) });
  system = await startSystem({
    env: {
      OCR_PROVIDER: 'mistral',
      MISTRAL_API_KEY: 'e2e-mistral-key',
      MISTRAL_BASE_URL: mistral.url,
      ANNOTATION_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: `${openai.url}/v1`,
      PARTNER_HMAC_SECRET: PARTNER_SECRET,
      FILE_URL_SECRET: 'e2e-file-url-secret',
    },
  });
  alice = await signIn(system, 'alice@example.com');
  bob = await signIn(system, 'bob@example.com');
  pdf = await buildPdf(sampleReportSpec({ sections: 2 }), { pages: 2 });
  const res = await upload(system, alice, {
    bytes: pdf,
    filename: 'survey.pdf',
    type: 'application/pdf',
  });
  expect(res.status).toBe(202);
  reportId = res.body.id;
  const events = await readEvents(system, alice, reportId);
  expect(events.at(-1)?.event).toBe('ReportReady');
});
afterAll(async () => {
  await system?.stop();
  await mistral?.close();
  await openai?.close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const hmac = (canonical: string) =>
  createHmac('sha256', PARTNER_SECRET).update(canonical).digest('hex');

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function attachmentsOf(session: Session, id: string) {
  return getJson<Attachment[]>(system, session, `/ingest/${id}/attachments`);
}

async function partnerUpload(partnerId: string, file: Buffer) {
  const fields = { partner_id: partnerId, attachment_type: 'floor_plan' };
  const form = new FormData();
  form.set('partner_id', fields.partner_id);
  form.set('attachment_type', fields.attachment_type);
  form.set('note', 'Sent by the lender');
  form.set('file', new Blob([file], { type: 'application/pdf' }), 'plan.pdf');
  const signature = hmac(
    partnerUploadCanonicalString({ report_id: reportId, ...fields, file_sha256: sha256(file) }),
  );
  const res = await fetch(`${system.url}/reports/${reportId}/attachments/system`, {
    method: 'POST',
    headers: { 'x-partner-signature': signature, 'x-forwarded-for': '10.66.0.1' },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Attachment };
}

async function partnerStatus(attachmentId: string) {
  const signature = hmac(
    partnerStatusCanonicalString({ report_id: reportId, attachment_id: attachmentId }),
  );
  const res = await fetch(`${system.url}/reports/${reportId}/attachments/${attachmentId}/status`, {
    headers: { 'x-partner-signature': signature, 'x-forwarded-for': '10.66.0.2' },
  });
  return { status: res.status, body: (await res.json()) as PartnerAttachmentStatus };
}

describe('attachments of a report folder', () => {
  let userUpload: Attachment;
  let partnerAttachment: Attachment;

  it('takes a user upload with 202 and runs it through every stage to ready', async () => {
    const form = new FormData();
    form.set('note', 'Photo of the rear');
    form.set('file', new Blob([tinyPng(320, 240)], { type: 'image/png' }), 'rear.png');
    const res = await fetch(`${system.url}/ingest/${reportId}/uploads`, {
      method: 'POST',
      headers: alice.headers(),
      body: form,
    });
    expect(res.status).toBe(202);
    userUpload = (await res.json()) as Attachment;
    expect(userUpload).toMatchObject({
      report_id: reportId,
      source: 'user_upload',
      status: 'uploaded',
    });
    const ready = await until('the user upload to be ready', async () => {
      const list = await attachmentsOf(alice, reportId);
      const mine = list.body.find((a) => a.id === userUpload.id);
      return mine?.status === 'ready' || mine?.status === 'failed' ? mine : null;
    });
    expect(ready).toMatchObject({ status: 'ready', ingestion_error: null });
  });

  it('takes a signed partner upload with 201, answers a repeat with 200, and runs it to ready', async () => {
    const first = await partnerUpload('LENDER-42', pdf);
    expect(first.status).toBe(201);
    partnerAttachment = first.body;
    const repeat = await partnerUpload('LENDER-42', pdf);
    expect(repeat.status).toBe(200);
    expect(repeat.body.id).toBe(partnerAttachment.id);
    const done = await until('the partner attachment to be ready', async () => {
      const s = await partnerStatus(partnerAttachment.id);
      return s.body.status === 'ready' || s.body.status === 'failed' ? s : null;
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'ready', ingestion_error: null });
    // Mistral OCR of two pages with annotations costs a cent.
    expect(done.body.ingestion_cost_cents).toBeGreaterThanOrEqual(1);
  });

  it('refuses a partner status request with a wrong signature', async () => {
    const res = await fetch(
      `${system.url}/reports/${reportId}/attachments/${partnerAttachment.id}/status`,
      { headers: { 'x-partner-signature': 'f'.repeat(64), 'x-forwarded-for': '10.66.0.3' } },
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 'invalid_hmac', detail: 'invalid HMAC' });
  });

  it('lists both attachments with their sources', async () => {
    const list = await attachmentsOf(alice, reportId);
    expect(list.status).toBe(200);
    expect(list.body.map((a) => [a.id, a.source])).toEqual([
      [userUpload.id, 'user_upload'],
      [partnerAttachment.id, 'partner'],
    ]);
  });

  it('gives every chunk of an attachment the parent report_id', async () => {
    const { rows } = await system.db.pool.query<{
      attachment_id: string;
      report_id: string;
      source_type: string;
      n: number;
    }>(
      `SELECT attachment_id, report_id, source_type, count(*)::int AS n FROM chunks
        WHERE attachment_id = ANY($1) GROUP BY attachment_id, report_id, source_type`,
      [[userUpload.id, partnerAttachment.id]],
    );
    expect(rows.map((r) => r.attachment_id).sort()).toEqual(
      [userUpload.id, partnerAttachment.id].sort(),
    );
    for (const row of rows) {
      expect(row.report_id).toBe(reportId);
      expect(row.source_type).toBe('attachment');
      expect(row.n).toBeGreaterThan(0);
    }
  });

  it('lists the figures of the folder, annotated by Mistral or, when thin, by the model', async () => {
    const res = await getJson<Figure[]>(system, alice, `/ingest/${reportId}/figures`);
    expect(res.status).toBe(200);
    const figures = res.body;
    expect(figures.every((f) => f.report_id === reportId)).toBe(true);
    const byTarget = (id: string | null) => figures.filter((f) => f.attachment_id === id);
    expect(byTarget(null)).toHaveLength(2);
    expect(byTarget(partnerAttachment.id)).toHaveLength(2);
    expect(byTarget(userUpload.id)).toHaveLength(1);
    expect(byTarget(null).map((f) => f.annotation_source)).toEqual(['mistral', 'openai']);
    expect(byTarget(null)[1]!.annotation_json).toEqual(OPENAI_ANNOTATION);
    expect(byTarget(null)[0]).toMatchObject({ page_number: 1, section_name: 'Page 1 findings' });
    for (const f of figures) expect(f.annotation_quality_score).toBeGreaterThan(0.5);
  });

  it('serves a figure through its signed links, thumbnail and original', async () => {
    const [figure] = (await getJson<Figure[]>(system, alice, `/ingest/${reportId}/figures`)).body;
    const thumb = await fetch(figure!.storage_url);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const original = await fetch(figure!.original_url);
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer())).toEqual(tinyPng());
  });

  it('gives links that stop working once they expire', async () => {
    const [figure] = (
      await getJson<Figure[]>(system, alice, `/ingest/${reportId}/figures?ttl_seconds=1`)
    ).body;
    const expires = Number(new URL(figure!.storage_url).searchParams.get('expires'));
    while (Date.now() / 1000 <= expires + 1) await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(figure!.storage_url);
    expect(res.status).toBe(403);
  });

  it('answers 404 to another tenant on every attachment and figure endpoint', async () => {
    for (const path of [`/ingest/${reportId}/figures`, `/ingest/${reportId}/attachments`]) {
      const res = await getJson<{ code: string }>(system, bob, path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const del = await getJson(system, bob, `/ingest/${reportId}/attachments/${userUpload.id}`, {
      method: 'DELETE',
    });
    expect(del.status).toBe(404);
    const form = new FormData();
    form.set('file', new Blob([tinyPng()], { type: 'image/png' }), 'x.png');
    const post = await fetch(`${system.url}/ingest/${reportId}/uploads`, {
      method: 'POST',
      headers: bob.headers(),
      body: form,
    });
    expect(post.status).toBe(404);
  });

  it('keeps a partner attachment (409) and deletes a user upload with its outputs', async () => {
    const partner = await getJson<{ code: string }>(
      system,
      alice,
      `/ingest/${reportId}/attachments/${partnerAttachment.id}`,
      { method: 'DELETE' },
    );
    expect(partner.status).toBe(409);
    expect(partner.body.code).toBe('attachment_immutable');
    const mine = await getJson(system, alice, `/ingest/${reportId}/attachments/${userUpload.id}`, {
      method: 'DELETE',
    });
    expect(mine).toEqual({ status: 200, body: { id: userUpload.id, deleted: true } });
    const { rows } = await system.db.pool.query(
      `SELECT (SELECT count(*)::int FROM chunks WHERE attachment_id = $1) AS chunks,
              (SELECT count(*)::int FROM figures WHERE attachment_id = $1) AS figures,
              (SELECT count(*)::int FROM sections WHERE attachment_id = $1) AS sections`,
      [userUpload.id],
    );
    expect(rows[0]).toEqual({ chunks: 0, figures: 0, sections: 0 });
    const left = await attachmentsOf(alice, reportId);
    expect(left.body.map((a) => a.id)).toEqual([partnerAttachment.id]);
  });
});
