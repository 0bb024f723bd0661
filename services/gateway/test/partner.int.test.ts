import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import {
  REPORTS_STREAM,
  parseEvent,
  partnerStatusCanonicalString,
  partnerUploadCanonicalString,
  type Attachment,
  type PartnerAttachmentStatus,
} from '@reports/contracts';
import { loadConfig, systemClock } from '@reports/platform';
import { buildDocx, buildHtml, buildScannedPdf, sampleReportSpec } from '@reports/test-support';
import { buildApp } from '../src/app.js';
import { partnerSignature } from '../src/partner/signature.js';
import {
  freshIp,
  multipart,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

const SECRET = 'partner-integration-secret';
let gw: TestGateway;
let alice: TestSession;
let reportId: string;
let pdf: Buffer;

beforeAll(async () => {
  gw = await startTestGateway({ PARTNER_HMAC_SECRET: SECRET });
  alice = await gw.signIn('alice@example.com');
  const body = await multipart(
    {},
    { bytes: buildHtml(sampleReportSpec()), filename: 'r.html', type: 'text/html' },
  );
  reportId = (
    await gw.app.inject({
      method: 'POST',
      url: '/ingest',
      payload: body.payload,
      headers: { ...alice.headers(), ...body.headers },
      remoteAddress: alice.ip,
    })
  ).json<{ id: string }>().id;
  pdf = await buildScannedPdf();
});
afterAll(async () => {
  await gw?.close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function sign(
  report: string,
  fields: { partner_id: string; attachment_type: string },
  file: Buffer,
  secret = SECRET,
): string {
  return partnerSignature(
    secret,
    partnerUploadCanonicalString({ report_id: report, ...fields, file_sha256: sha256(file) }),
  );
}

async function partnerUpload(opts: {
  report?: string;
  partner_id?: string;
  attachment_type?: string;
  note?: string;
  file?: Buffer;
  filename?: string;
  type?: string;
  signature?: string | null;
}) {
  const report = opts.report ?? reportId;
  const fields = {
    partner_id: opts.partner_id ?? `P-${randomUUID()}`,
    attachment_type: opts.attachment_type ?? 'floor_plan',
  };
  const file = opts.file ?? pdf;
  const body = await multipart(
    { ...fields, ...(opts.note ? { note: opts.note } : {}) },
    { bytes: file, filename: opts.filename ?? 'plan.pdf', type: opts.type ?? 'application/pdf' },
  );
  const signature = opts.signature === undefined ? sign(report, fields, file) : opts.signature;
  const res = await gw.app.inject({
    method: 'POST',
    url: `/reports/${report}/attachments/system`,
    payload: body.payload,
    headers: {
      ...body.headers,
      ...(signature === null ? {} : { 'x-partner-signature': signature }),
    },
    remoteAddress: '10.99.0.1',
  });
  return { res, fields };
}

async function attachmentKeys(): Promise<string[]> {
  return gw.objectStore.list(
    `tenants/${alice.user.active_tenant_id}/reports/${reportId}/attachments/`,
  );
}

describe('POST /reports/{id}/attachments/system', () => {
  it('creates a partner attachment with 201 when the signature matches, and starts its ingestion', async () => {
    const { res, fields } = await partnerUpload({ note: 'From the lender' });
    expect(res.statusCode).toBe(201);
    const attachment = res.json<Attachment>();
    expect(attachment).toMatchObject({
      report_id: reportId,
      source: 'partner',
      partner_id: fields.partner_id,
      attachment_type: 'floor_plan',
      note: 'From the lender',
      content_type: 'application/pdf',
      size_bytes: pdf.length,
      status: 'uploaded',
    });
    const msg = await gw.nats.jsm.streams.getMessage(REPORTS_STREAM, {
      last_by_subj: `reports.${alice.user.active_tenant_id}.${reportId}.ReportUploaded`,
    });
    expect(parseEvent(msg!.json())).toMatchObject({
      target_kind: 'attachment',
      target_id: attachment.id,
      report_id: reportId,
      tenant_id: alice.user.active_tenant_id,
    });
  });

  it('answers a repeat with the same partner_id with 200 and the original, inserting nothing', async () => {
    const partnerId = `P-${randomUUID()}`;
    const first = await partnerUpload({ partner_id: partnerId });
    const before = await attachmentKeys();
    const again = await partnerUpload({ partner_id: partnerId, attachment_type: 'photo' });
    expect(again.res.statusCode).toBe(200);
    expect(again.res.json()).toEqual(first.res.json());
    const { rows } = await gw.db.pool.query(
      `SELECT count(*)::int AS n FROM attachments WHERE report_id = $1 AND partner_id = $2`,
      [reportId, partnerId],
    );
    expect(rows[0]).toEqual({ n: 1 });
    expect(await attachmentKeys()).toEqual(before);
  });

  it('answers 401 invalid HMAC to a wrong signature and leaves no file behind', async () => {
    const before = await attachmentKeys();
    const other = sign(
      reportId,
      { partner_id: 'P-x', attachment_type: 'floor_plan' },
      pdf,
      'wrong',
    );
    const { res } = await partnerUpload({ partner_id: 'P-x', signature: other });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'invalid_hmac', detail: 'invalid HMAC' });
    expect(await attachmentKeys()).toEqual(before);
  });

  it('answers 401 when the signature covers other file bytes or another type', async () => {
    const fields = { partner_id: 'P-y', attachment_type: 'floor_plan' };
    const forOtherFile = sign(reportId, fields, Buffer.from('other bytes'));
    expect((await partnerUpload({ ...fields, signature: forOtherFile })).res.statusCode).toBe(401);
    const forOtherType = sign(reportId, { ...fields, attachment_type: 'epc' }, pdf);
    expect((await partnerUpload({ ...fields, signature: forOtherType })).res.statusCode).toBe(401);
  });

  it('answers 401 invalid HMAC to a signature of the wrong length, not hex, or missing', async () => {
    const good = sign(reportId, { partner_id: 'P-z', attachment_type: 'floor_plan' }, pdf);
    for (const signature of [good.slice(0, 63), `${good}ab`, 'x'.repeat(64), '', null]) {
      const { res } = await partnerUpload({ partner_id: 'P-z', signature });
      expect(res.statusCode, String(signature)).toBe(401);
      expect(res.json<{ detail: string }>().detail).toBe('invalid HMAC');
    }
  });

  it('answers 404 for an unknown report with a valid signature, 401 with an invalid one', async () => {
    const unknown = randomUUID();
    expect((await partnerUpload({ report: unknown })).res.statusCode).toBe(404);
    expect(
      (await partnerUpload({ report: unknown, signature: 'a'.repeat(64) })).res.statusCode,
    ).toBe(401);
  });

  it('takes only PDFs and images (415 for a Word file)', async () => {
    const docx = await buildDocx(sampleReportSpec());
    const { res } = await partnerUpload({
      file: docx,
      filename: 'r.docx',
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    expect(res.statusCode).toBe(415);
  });

  it('answers 422 when partner_id is missing or holds the separator', async () => {
    const { res } = await partnerUpload({ partner_id: 'a|b' });
    expect(res.statusCode).toBe(422);
    const body = await multipart({ attachment_type: 'x' }, { bytes: pdf, filename: 'p.pdf' });
    const missing = await gw.app.inject({
      method: 'POST',
      url: `/reports/${reportId}/attachments/system`,
      payload: body.payload,
      headers: { ...body.headers, 'x-partner-signature': 'a'.repeat(64) },
      remoteAddress: '10.99.0.2',
    });
    expect(missing.statusCode).toBe(422);
  });
});

describe('GET /reports/{id}/attachments/{aid}/status', () => {
  const status = (report: string, attachment: string, signature?: string) =>
    gw.app.inject({
      method: 'GET',
      url: `/reports/${report}/attachments/${attachment}/status`,
      headers: signature === undefined ? {} : { 'x-partner-signature': signature },
      remoteAddress: '10.99.0.3',
    });
  const signStatus = (report: string, attachment: string) =>
    partnerSignature(
      SECRET,
      partnerStatusCanonicalString({ report_id: report, attachment_id: attachment }),
    );

  it('answers the status and ingestion_cost_cents of a partner attachment', async () => {
    const attachment = (await partnerUpload({})).res.json<Attachment>();
    await gw.db.pool.query(
      `UPDATE attachments SET status = 'ready', ingestion_cost_cents = 3 WHERE id = $1`,
      [attachment.id],
    );
    const res = await status(reportId, attachment.id, signStatus(reportId, attachment.id));
    expect(res.statusCode).toBe(200);
    expect(res.json<PartnerAttachmentStatus>()).toMatchObject({
      id: attachment.id,
      report_id: reportId,
      status: 'ready',
      ingestion_cost_cents: 3,
      ingestion_error: null,
    });
  });

  it('answers 401 to a wrong, short or missing signature', async () => {
    const attachment = (await partnerUpload({})).res.json<Attachment>();
    const good = signStatus(reportId, attachment.id);
    for (const sig of [signStatus(reportId, randomUUID()), good.slice(1), undefined]) {
      const res = await status(reportId, attachment.id, sig);
      expect(res.statusCode).toBe(401);
      expect(res.json<{ detail: string }>().detail).toBe('invalid HMAC');
    }
  });

  it('answers 404 for an unknown attachment and for a user upload', async () => {
    const unknown = randomUUID();
    expect((await status(reportId, unknown, signStatus(reportId, unknown))).statusCode).toBe(404);
    const userUpload = randomUUID();
    await gw.db.pool.query(
      `INSERT INTO attachments (id, tenant_id, report_id, source, filename, content_type, document_kind, size_bytes,
         sha256, object_key) VALUES ($1,$2,$3,'user_upload','a.png','image/png','png',1,$4,'k')`,
      [userUpload, alice.user.active_tenant_id, reportId, 'd'.repeat(64)],
    );
    expect((await status(reportId, userUpload, signStatus(reportId, userUpload))).statusCode).toBe(
      404,
    );
  });
});

describe('the partner endpoints without PARTNER_HMAC_SECRET', () => {
  it('answer 503 partner_hmac_disabled', async () => {
    const config = loadConfig({
      DATABASE_URL: gw.db.url,
      NATS_URL: gw.natsServer.url,
      OBJECT_STORE_URL: `file://${gw.objectsDir}`,
    });
    const app = await buildApp({
      config,
      logger: pino({ level: 'silent' }),
      pool: gw.db.pool,
      nats: gw.nats,
      objectStore: gw.objectStore,
      publicUrl: 'http://gateway.test',
      clock: systemClock,
    });
    try {
      const res = await app.inject({
        method: 'GET',
        url: `/reports/${reportId}/attachments/${randomUUID()}/status`,
        headers: { 'x-partner-signature': 'a'.repeat(64) },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json<{ code: string }>().code).toBe('partner_hmac_disabled');
    } finally {
      await app.close();
    }
  });
});
