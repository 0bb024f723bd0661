import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS_STREAM, parseEvent, type Attachment } from '@reports/contracts';
import { buildHtml, sampleReportSpec } from '@reports/test-support';
import { tinyPng } from '@reports/test-support';
import {
  multipart,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

let gw: TestGateway;
let alice: TestSession;
let bob: TestSession;
let reportId: string;
const png = tinyPng();

beforeAll(async () => {
  gw = await startTestGateway();
  alice = await gw.signIn('alice@example.com');
  bob = await gw.signIn('bob@example.com');
  reportId = await uploadReport(alice);
});
afterAll(async () => {
  await gw?.close();
});

async function uploadReport(session: TestSession): Promise<string> {
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
  return res.json<{ id: string }>().id;
}

async function uploadAttachment(
  session: TestSession,
  id: string,
  fields: Record<string, string> = {},
  file = { bytes: png, filename: 'plan.png', type: 'image/png' },
) {
  const body = await multipart(fields, file);
  return gw.app.inject({
    method: 'POST',
    url: `/ingest/${id}/uploads`,
    payload: body.payload,
    headers: { ...session.headers(), ...body.headers },
    remoteAddress: session.ip,
  });
}

const get = (session: TestSession, url: string) =>
  gw.app.inject({ method: 'GET', url, headers: session.headers(), remoteAddress: session.ip });
const del = (session: TestSession, url: string) =>
  gw.app.inject({ method: 'DELETE', url, headers: session.headers(), remoteAddress: session.ip });

describe('POST /ingest/{id}/uploads', () => {
  it('answers 202 with a user_upload attachment of the report, stored under the report', async () => {
    const res = await uploadAttachment(alice, reportId, { note: 'Rear extension photo' });
    expect(res.statusCode).toBe(202);
    const attachment = res.json<Attachment>();
    expect(attachment).toMatchObject({
      report_id: reportId,
      source: 'user_upload',
      partner_id: null,
      note: 'Rear extension photo',
      filename: 'plan.png',
      content_type: 'image/png',
      size_bytes: png.length,
      status: 'uploaded',
      ingestion_cost_cents: 0,
    });
    const key = `tenants/${alice.user.active_tenant_id}/reports/${reportId}/attachments/${attachment.id}/original/source.png`;
    expect(await gw.objectStore.getBuffer(key)).toEqual(png);
  });

  it('publishes ReportUploaded with target_kind attachment on the parent report’s subject', async () => {
    const attachment = (await uploadAttachment(alice, reportId)).json<Attachment>();
    const msg = await gw.nats.jsm.streams.getMessage(REPORTS_STREAM, {
      last_by_subj: `reports.${alice.user.active_tenant_id}.${reportId}.ReportUploaded`,
    });
    const event = parseEvent(msg!.json());
    expect(event).toMatchObject({
      type: 'ReportUploaded',
      report_id: reportId,
      target_kind: 'attachment',
      target_id: attachment.id,
      generation: 1,
    });
  });

  it('checks the file as POST /ingest does: 415 for bytes of no accepted type, 400 when empty', async () => {
    const wrong = await uploadAttachment(
      alice,
      reportId,
      {},
      {
        bytes: Buffer.from('just text'),
        filename: 'x.png',
        type: 'image/png',
      },
    );
    expect(wrong.statusCode).toBe(415);
    const empty = await uploadAttachment(
      alice,
      reportId,
      {},
      {
        bytes: Buffer.alloc(0),
        filename: 'x.png',
        type: 'image/png',
      },
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ code: string }>().code).toBe('empty_file');
  });

  it('answers 404 for a report of another tenant or none, and stores nothing', async () => {
    expect((await uploadAttachment(bob, reportId)).statusCode).toBe(404);
    expect((await uploadAttachment(alice, randomUUID())).statusCode).toBe(404);
    const keys = await gw.objectStore.list(`tenants/${bob.user.active_tenant_id}/`);
    expect(keys).toEqual([]);
  });
});

describe('GET /ingest/{id}/attachments', () => {
  it('lists partner and user attachments of the report in upload order', async () => {
    const id = await uploadReport(alice);
    const mine = (await uploadAttachment(alice, id)).json<Attachment>();
    const partnerId = randomUUID();
    await gw.db.pool.query(
      `INSERT INTO attachments (id, tenant_id, report_id, source, partner_id, attachment_type, filename, content_type,
         document_kind, size_bytes, sha256, object_key, created_at)
       VALUES ($1,$2,$3,'partner','P-1','epc','epc.pdf','application/pdf','pdf',10,$4,'k', now() + interval '1 second')`,
      [partnerId, alice.user.active_tenant_id, id, 'b'.repeat(64)],
    );
    const res = await get(alice, `/ingest/${id}/attachments`);
    expect(res.statusCode).toBe(200);
    expect(res.json<Attachment[]>().map((a) => [a.id, a.source])).toEqual([
      [mine.id, 'user_upload'],
      [partnerId, 'partner'],
    ]);
  });

  it('answers 404 for a report of another tenant', async () => {
    expect((await get(bob, `/ingest/${reportId}/attachments`)).statusCode).toBe(404);
  });
});

describe('DELETE /ingest/{id}/attachments/{aid}', () => {
  async function givenParsedAttachment(id: string, source: 'user_upload' | 'partner') {
    const aid = randomUUID();
    const tenant = alice.user.active_tenant_id;
    const key = `tenants/${tenant}/reports/${id}/attachments/${aid}/original/source.png`;
    await gw.objectStore.put(key, png);
    await gw.db.pool.query(
      `INSERT INTO attachments (id, tenant_id, report_id, source, partner_id, filename, content_type, document_kind,
         size_bytes, sha256, object_key) VALUES ($1,$2,$3,$4,$5,'a.png','image/png','png',1,$6,$7)`,
      [aid, tenant, id, source, source === 'partner' ? `P-${aid}` : null, 'c'.repeat(64), key],
    );
    const sectionId = randomUUID();
    await gw.db.pool.query(
      `INSERT INTO sections (id, tenant_id, report_id, attachment_id, target_id, section_name, section_slug, level,
         order_in_doc, markdown) VALUES ($1,$2,$3,$4,$4,'Photo','photo',1,0,'text')`,
      [sectionId, tenant, id, aid],
    );
    await gw.db.pool.query(
      `INSERT INTO figures (id, tenant_id, report_id, attachment_id, target_id, order_in_doc, object_key)
       VALUES ($1,$2,$3,$4,$4,0,$5)`,
      [randomUUID(), tenant, id, aid, key],
    );
    await gw.db.pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, attachment_id, target_id, section_id, content, content_tokens,
         order_in_doc) VALUES ($1,$2,$3,$4,$4,$5,'text',1,0)`,
      [randomUUID(), tenant, id, aid, sectionId],
    );
    return { aid, key };
  }

  async function rowsOf(aid: string): Promise<number[]> {
    const counts = [];
    for (const table of ['attachments', 'sections', 'figures', 'chunks']) {
      const column = table === 'attachments' ? 'id' : 'attachment_id';
      const { rows } = await gw.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`,
        [aid],
      );
      counts.push(rows[0]!.n);
    }
    return counts;
  }

  it('removes a user upload with its sections, figures and chunks, and leaves the stored file', async () => {
    const id = await uploadReport(alice);
    const { aid, key } = await givenParsedAttachment(id, 'user_upload');
    expect(await rowsOf(aid)).toEqual([1, 1, 1, 1]);
    const res = await del(alice, `/ingest/${id}/attachments/${aid}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: aid, deleted: true });
    expect(await rowsOf(aid)).toEqual([0, 0, 0, 0]);
    expect(await gw.objectStore.stat(key)).not.toBeNull();
    expect((await del(alice, `/ingest/${id}/attachments/${aid}`)).statusCode).toBe(404);
  });

  it('answers 409 attachment_immutable for a partner attachment and keeps it', async () => {
    const id = await uploadReport(alice);
    const { aid } = await givenParsedAttachment(id, 'partner');
    const res = await del(alice, `/ingest/${id}/attachments/${aid}`);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ code: string }>().code).toBe('attachment_immutable');
    expect(await rowsOf(aid)).toEqual([1, 1, 1, 1]);
  });

  it('answers 404 to another tenant and for an attachment of another report', async () => {
    const id = await uploadReport(alice);
    const other = await uploadReport(alice);
    const { aid } = await givenParsedAttachment(id, 'user_upload');
    expect((await del(bob, `/ingest/${id}/attachments/${aid}`)).statusCode).toBe(404);
    expect((await del(alice, `/ingest/${other}/attachments/${aid}`)).statusCode).toBe(404);
    expect(await rowsOf(aid)).toEqual([1, 1, 1, 1]);
  });
});
