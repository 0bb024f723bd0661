import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, importJWK, SignJWT, type JWK } from 'jose';
import { buildHtml, sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import { freshIp, signIn, upload, waitForStatus, type Session } from './support/client.js';
import { chat } from './support/chat.js';

/**
 * The tenant isolation matrix. Every endpoint of the gateway is called by Bob
 * with the ids of Alice's resources (another tenant). Where an endpoint is
 * tenant-scoped the answer must be 404 and exactly the answer for ids that do
 * not exist at all (nothing leaks, not even existence); where it is not scoped
 * by JWT (admin hash, partner signature, signed file links) Bob's token must get
 * him nowhere (401/403, again exactly as for made-up ids); endpoints that only
 * ever answer about the caller must not mention any of Alice's ids.
 *
 * Adding an endpoint is one line in MATRIX; a test fails while the gateway has
 * a route that is not in it (or the table names a route the gateway lacks).
 */
type Ids = Record<
  'report_id' | 'attachment_id' | 'section_name' | 'tenant_id' | 'file_key',
  string
> &
  Record<string, string>;

interface Row {
  /** 404 / 401 / 403: the answer, identical to the one for made-up ids. `own`: answers only about the caller. `public`: no tenant data. */
  expect: 404 | 401 | 403 | 'own' | 'public';
  /** JSON body, built from the victim's ids. */
  json?: (ids: Ids) => unknown;
  /** A small HTML upload as multipart/form-data. */
  upload?: true;
  /** Query string appended to the URL. */
  query?: string;
}

const MATRIX: Record<string, Row> = {
  'GET /health': { expect: 'public' },
  'POST /auth/magic-link': { expect: 'public', json: () => ({ email: 'bob@example.com' }) },
  'GET /auth/confirm': { expect: 'public' },
  'POST /auth/token': { expect: 'public', json: () => ({ refresh_token: 'x'.repeat(32) }) },
  'GET /auth/jwks.json': { expect: 'public' },
  // Partner sign-in exchange (ADR 101): a token for the partner's own user, never tenant data.
  'POST /auth/partner-exchange': { expect: 'public', json: () => ({ jwt: 'not-a-token' }) },
  'GET /me': { expect: 'own' },
  'GET /reports': { expect: 'own' },
  'POST /reports': { expect: 'own', upload: true },
  'GET /reports/{report_id}': { expect: 404 },
  'GET /reports/{report_id}/sections': { expect: 404 },
  'GET /reports/{report_id}/sections/{section_name}': { expect: 404 },
  'POST /ingest': { expect: 'own', upload: true },
  'GET /ingest/{report_id}/status': { expect: 404 },
  'GET /ingest/{report_id}/sections': { expect: 404 },
  'GET /ingest/{report_id}/events': { expect: 404 },
  'GET /ingest/{report_id}/figures': { expect: 404 },
  'GET /ingest/{report_id}/attachments': { expect: 404 },
  'POST /ingest/{report_id}/uploads': { expect: 404, upload: true },
  'DELETE /ingest/{report_id}/attachments/{attachment_id}': { expect: 404 },
  'DELETE /ingest/{report_id}': { expect: 404 },
  'POST /retrieve': {
    expect: 404,
    json: (ids) => ({
      query: 'roof slate',
      scope: { type: 'folder', report_id: ids.report_id },
      top_k: 5,
    }),
  },
  'GET /files/{*}': { expect: 403 },
  'POST /reports/{report_id}/attachments/system': { expect: 401, upload: true },
  'GET /reports/{report_id}/attachments/{attachment_id}/status': { expect: 401 },
  'GET /migrate/status': { expect: 'own' },
  'POST /migrate/claim': { expect: 'own' },
  'GET /admin/verify': { expect: 403 },
  'GET /admin/feedback': { expect: 403, query: 'report_id={report_id}' },
  'GET /admin/feedback/stats': { expect: 403 },
  'GET /admin/retrieval/stats': { expect: 403 },
  'GET /admin/retrieval/queries': { expect: 403, query: 'zero_results=true' },
  'GET /admin/providers': { expect: 403, query: 'tenant_id={tenant_id}' },
  'PUT /admin/providers/{provider_id}': {
    expect: 403,
    json: (ids) => ({ tenant_id: ids.tenant_id, provider: 'openai', model: 'stolen' }),
  },
  'POST /admin/migrate/preauth': { expect: 403, json: () => ({ email: 'bob@example.com' }) },
  'GET /admin/migrate/stats': { expect: 403 },
  'POST /admin/migrate/reverse-claim': {
    expect: 403,
    json: () => ({ email: 'alice@example.com' }),
  },
  'GET /admin/cost/global': { expect: 403, query: 'days=30' },
  'GET /admin/cost/tenant/{tenant_id}': { expect: 403, query: 'days=30' },
  'POST /admin/embed/{target_kind}/{target_id}': { expect: 403 },
  'POST /admin/retrieve/{report_id}': { expect: 403, json: () => ({ query: 'roof', top_k: 5 }) },
  'POST /chat': { expect: 404, json: (ids) => ({ report_id: ids.report_id, message: 'roof?' }) },
  'GET /models': { expect: 'own' },
  'GET /conversations': { expect: 404, query: 'report_id={report_id}' },
  'POST /conversations': { expect: 404, json: (ids) => ({ report_id: ids.report_id }) },
  'GET /conversations/{conv_id}/messages': { expect: 404 },
  'PATCH /conversations/{conv_id}': { expect: 404, json: () => ({ title: 'stolen' }) },
  'DELETE /conversations/{conv_id}': { expect: 404 },
  // Chat memory (ADR 133): the caller's own setting; clearing another tenant's report is 404.
  'GET /chat/memory': { expect: 'own' },
  'PUT /chat/memory': { expect: 'own', json: () => ({ enabled: true }) },
  'DELETE /chat/memory': { expect: 404, query: 'report_id={report_id}' },
  'POST /feedback': {
    expect: 404,
    json: (ids) => ({ message_id: ids.message_id ?? randomUUID(), value: 'down' }),
  },
};

/** The other scopes of `POST /retrieve` (ADR 130): the same 404, exactly as for made-up ids. */
const RETRIEVE_SCOPES: Record<string, Row> = {
  section: {
    expect: 404,
    json: (ids) => ({
      query: 'roof slate',
      scope: { type: 'section', report_id: ids.report_id, section: ids.section_name },
    }),
  },
  multi_report: {
    expect: 404,
    json: (ids) => ({
      query: 'roof slate',
      scope: { type: 'multi_report', report_ids: [ids.report_id, ids.attachment_id] },
    }),
  },
};

let system: RunningSystem;
let alice: Session;
let bob: Session;
let victim: Ids;
const html = buildHtml(sampleReportSpec({ sections: 3 }));

beforeAll(async () => {
  system = await startSystem({
    env: {
      ADMIN_HASH: 'tenancy-admin-hash-0123456789abcdef',
      PARTNER_HMAC_SECRET: 'tenancy-partner-secret-0123456789',
      REPORTS_SYNC_TIMEOUT_MS: '60000',
    },
  });
  alice = await signIn(system, 'alice@example.com');
  bob = await signIn(system, 'bob@example.com');
  const up = await upload(
    system,
    alice,
    { bytes: html, filename: 'alice.html', type: 'text/html' },
    'Alice',
  );
  expect(up.status).toBe(202);
  await waitForStatus(system, alice, up.body.id, 'ready', 90_000);
  const { rows } = await system.db.pool.query<{ section_slug: string; object_key: string }>(
    `SELECT s.section_slug, r.object_key FROM sections s JOIN reports r ON r.id = s.report_id
      WHERE s.report_id = $1 ORDER BY s.order_in_doc LIMIT 1`,
    [up.body.id],
  );
  // An attachment of Alice's report, as an upload would record it.
  const attachmentId = randomUUID();
  await system.db.pool.query(
    `INSERT INTO attachments (id, tenant_id, report_id, source, filename, content_type, document_kind, size_bytes, sha256, object_key, status)
     VALUES ($1, $2, $3, 'user_upload', 'extra.html', 'text/html', 'html', 10, $4, $5, 'ready')`,
    [
      attachmentId,
      alice.user.active_tenant_id,
      up.body.id,
      'c'.repeat(64),
      `tenants/${alice.user.active_tenant_id}/reports/${up.body.id}/attachments/${attachmentId}/source.html`,
    ],
  );
  victim = {
    report_id: up.body.id,
    attachment_id: attachmentId,
    section_name: rows[0]!.section_slug,
    tenant_id: alice.user.active_tenant_id,
    file_key: rows[0]!.object_key,
    target_kind: 'report',
    target_id: up.body.id,
    provider_id: 'openai',
    // A conversation of Alice's with one answer (local extractive model).
    ...(await (async () => {
      const turn = await chat(system, alice, { report_id: up.body.id, message: 'Roof?' });
      expect(turn.end).not.toBeNull();
      return { conv_id: turn.start!.conversation_id, message_id: turn.end!.message_id };
    })()),
  };
}, 180_000);

afterAll(async () => {
  await system?.stop();
});

/** Ids of the same shape that name nothing. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids of the same shape as the victim's that name nothing: every uuid replaced, whatever its key. */
function madeUp(): Ids {
  const ids = Object.fromEntries(
    Object.entries(victim).map(([name, value]) => [name, UUID.test(value) ? randomUUID() : value]),
  ) as Ids;
  return {
    ...ids,
    section_name: 'no-such-section',
    file_key: `tenants/${randomUUID()}/reports/${randomUUID()}/original/source.html`,
  };
}

function fill(template: string, ids: Ids): string {
  return template
    .replace('{*}', ids.file_key)
    .replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(ids[name] ?? randomUUID()));
}

async function call(
  key: string,
  row: Row,
  ids: Ids,
  as: Pick<Session, 'headers'> = bob,
): Promise<{ status: number; text: string; body: unknown }> {
  const [method, path] = key.split(' ') as [string, string];
  const url = `${system.url}${fill(path, ids)}${row.query ? `?${fill(row.query, ids)}` : ''}`;
  let body: string | FormData | undefined;
  const headers: Record<string, string> = { ...as.headers({ 'x-forwarded-for': freshIp() }) };
  if (row.json) {
    body = JSON.stringify(row.json(ids));
    headers['content-type'] = 'application/json';
  } else if (row.upload) {
    const form = new FormData();
    form.set('file', new Blob([html], { type: 'text/html' }), 'bob.html');
    form.set('partner_id', 'p-1');
    form.set('attachment_type', 'photo');
    body = form;
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, text, body: parsed };
}

describe('the tenant isolation matrix', () => {
  it('lists exactly the routes the gateway has', async () => {
    const doc = (await (await fetch(`${system.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(
      routes.filter((r) => !(r in MATRIX)),
      'routes missing from MATRIX: add one row each (docs/adr/031-tenancy.md)',
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((r) => !routes.includes(r)),
      'MATRIX rows without a route',
    ).toEqual([]);
  });

  const victimIds = () => Object.values(victim).filter((v) => v.length > 20);

  for (const [key, row] of Object.entries(MATRIX)) {
    it(`${key}: ${typeof row.expect === 'number' ? `answers ${row.expect} to another tenant, exactly as to made-up ids` : `answers only about the caller (${row.expect})`}`, async () => {
      const answer = await call(key, row, victim);
      expect(answer.status, `${key}: ${answer.text}`).not.toBe(500);
      for (const id of victimIds()) expect(answer.text, `${key} leaks ${id}`).not.toContain(id);
      if (typeof row.expect === 'number') {
        expect(answer.status, `${key}: ${answer.text}`).toBe(row.expect);
        const control = await call(key, row, madeUp());
        expect(control.status, `${key} (made-up ids)`).toBe(row.expect);
        expect(answer.body, key).toEqual(control.body);
        if (row.expect === 404) expect(answer.body).toMatchObject({ code: 'not_found' });
      }
    });
  }

  for (const [scope, row] of Object.entries(RETRIEVE_SCOPES)) {
    it(`POST /retrieve, scope ${scope}: answers 404 to another tenant, exactly as to made-up ids`, async () => {
      const answer = await call('POST /retrieve', row, victim);
      expect(answer.status, answer.text).toBe(404);
      for (const id of victimIds()) expect(answer.text, `${scope} leaks ${id}`).not.toContain(id);
      const control = await call('POST /retrieve', row, madeUp());
      expect(control.status).toBe(404);
      expect(answer.body).toEqual(control.body);
      expect(answer.body).toMatchObject({ code: 'not_found' });
      // Alice herself gets her section (by its slug) through the same route.
      const own = await call('POST /retrieve', row, victim, alice);
      expect(own.status, own.text).toBe(scope === 'section' ? 200 : 404);
    });
  }

  /**
   * Bob's own token, validly signed by the issuer, naming Alice's tenant as the active one: the
   * effective tenant is Alice's (the interface's rule), but Bob is not a member of it, so nothing
   * in it exists for him on any JWT route (docs/adr/097).
   */
  async function forgedActiveTenant(): Promise<Pick<Session, 'headers'>> {
    const { rows } = await system.db.pool.query<{ kid: string; private_jwk: JWK }>(
      'SELECT kid, private_jwk FROM auth_signing_keys ORDER BY created_at, kid LIMIT 1',
    );
    const key = await importJWK(rows[0]!.private_jwk, 'ES256');
    const claims = decodeJwt(bob.token);
    const token = await new SignJWT({ ...claims, active_tenant_id: victim.tenant_id })
      .setProtectedHeader({ alg: 'ES256', kid: rows[0]!.kid, typ: 'JWT' })
      .sign(key);
    return { headers: (extra = {}) => ({ authorization: `Bearer ${token}`, ...extra }) };
  }

  for (const [key, row] of Object.entries(MATRIX)) {
    if (row.expect !== 404 && row.expect !== 'own') continue;
    it(`${key}: answers 404 to a token naming a tenant its user is not a member of`, async () => {
      const answer = await call(key, row, victim, await forgedActiveTenant());
      expect(answer.status, `${key}: ${answer.text}`).toBe(404);
      expect(answer.body).toMatchObject({ code: 'not_found' });
      for (const id of victimIds()) expect(answer.text, `${key} leaks ${id}`).not.toContain(id);
    });
  }

  it('left Alice’s report and attachment in place, and put nothing in her tenant', async () => {
    const { rows } = await system.db.pool.query(
      `SELECT (SELECT count(*)::int FROM reports WHERE tenant_id = $1) AS reports,
              (SELECT count(*)::int FROM reports WHERE id = $2) AS report,
              (SELECT count(*)::int FROM attachments WHERE id = $3) AS attachment`,
      [victim.tenant_id, victim.report_id, victim.attachment_id],
    );
    expect(rows[0]).toEqual({ reports: 1, report: 1, attachment: 1 });
    const status = await waitForStatus(system, alice, victim.report_id, 'ready');
    expect(status.id).toBe(victim.report_id);
  });
});
