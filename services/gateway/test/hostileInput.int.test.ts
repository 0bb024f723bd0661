import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHtml, sampleReportSpec } from '../../../packages/test-support/src/fixtures/index.js';
import {
  freshIp,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

/**
 * Caller text no store can keep (a NUL character, an unpaired UTF-16 surrogate)
 * and multipart bodies that cannot be read answer 400 `bad_request` saying what
 * is wrong, and leave nothing behind: no stored object, no row (docs/adr/095, 096).
 */
const HASH = 'hostile-admin-hash-0123456789abcdef';
const PARTNER_SECRET = 'hostile-partner-secret-0123456789';
const NUL = 'roof\u0000slate';
const LONE = 'roof \ud800 slate';
const html = buildHtml(sampleReportSpec({ sections: 1 }));

let gw: TestGateway;
let alice: TestSession;
let reportId: string;

beforeAll(async () => {
  gw = await startTestGateway({ ADMIN_HASH: HASH, PARTNER_HMAC_SECRET: PARTNER_SECRET });
  alice = await gw.signIn('alice@example.com');
  reportId = randomUUID();
  await gw.db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, content_type, document_kind, size_bytes, sha256, object_key, status)
     VALUES ($1, $2, 'a.html', 'text/html', 'html', 1, $3, 'tenants/x/reports/y/original/source.html', 'ready')`,
    [reportId, alice.user.active_tenant_id ?? alice.user.personal_tenant_id, 'd'.repeat(64)],
  );
});
afterAll(async () => {
  await gw?.close();
});

async function storedFiles(): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out.push(path.relative(gw.objectsDir, full));
    }
  }
  await walk(gw.objectsDir);
  return out;
}

async function rowCounts(): Promise<Record<string, number>> {
  const { rows } = await gw.db.pool.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM reports) AS reports,
            (SELECT count(*)::int FROM attachments) AS attachments,
            (SELECT count(*)::int FROM conversations) AS conversations`,
  );
  return rows[0]!;
}

function json(method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown, admin = false) {
  return gw.app.inject({
    method,
    url,
    headers: {
      ...(admin ? { 'x-admin-hash': HASH } : alice.headers()),
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
    remoteAddress: freshIp(),
  });
}

const JSON_FIELDS: Array<{
  name: string;
  method: 'POST' | 'PUT' | 'PATCH';
  url: () => string;
  body: (text: string) => unknown;
  admin?: boolean;
}> = [
  {
    name: 'retrieve query',
    method: 'POST',
    url: () => '/retrieve',
    body: (query) => ({ query, scope: { type: 'folder', report_id: reportId }, top_k: 5 }),
  },
  {
    name: 'admin retrieve query',
    method: 'POST',
    url: () => `/admin/retrieve/${reportId}`,
    body: (query) => ({ query, top_k: 5 }),
    admin: true,
  },
  {
    name: 'chat message',
    method: 'POST',
    url: () => '/chat',
    body: (message) => ({ report_id: reportId, message }),
  },
  {
    name: 'conversation title',
    method: 'PATCH',
    url: () => `/conversations/${randomUUID()}`,
    body: (title) => ({ title }),
  },
  {
    name: 'feedback comment',
    method: 'POST',
    url: () => '/feedback',
    body: (comment) => ({ message_id: randomUUID(), value: 'down', comment }),
  },
  {
    name: 'provider model',
    method: 'PUT',
    url: () => '/admin/providers/openai',
    body: (model) => ({ tenant_id: null, provider: 'openai', model }),
    admin: true,
  },
];

describe('text that cannot be stored, in a JSON body', () => {
  for (const field of JSON_FIELDS) {
    for (const [what, text] of [
      ['a NUL character', NUL],
      ['an unpaired surrogate', LONE],
    ] as const) {
      it(`answers 400 for ${what} in the ${field.name}, storing nothing`, async () => {
        const before = await rowCounts();
        const res = await json(field.method, field.url(), field.body(text), field.admin);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'bad_request',
          detail: expect.stringMatching(what === 'a NUL character' ? /NUL/ : /surrogate/),
        });
        expect(await rowCounts()).toEqual(before);
      });
    }
  }

  it('answers 400 for a NUL character in a query string or a path segment', async () => {
    const query = await gw.app.inject({
      method: 'GET',
      url: `/conversations?report_id=${reportId}&x=%00`,
      headers: alice.headers(),
      remoteAddress: freshIp(),
    });
    expect(query.statusCode, query.body).toBe(400);
    const param = await gw.app.inject({
      method: 'GET',
      url: `/reports/${reportId}/sections/a%00b`,
      headers: alice.headers(),
      remoteAddress: freshIp(),
    });
    expect(param.statusCode, param.body).toBe(400);
  });
});

/** A multipart body written by hand, so that it can be broken on purpose. */
function form(
  parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>,
  opts: { boundary?: string; declared?: string | null; close?: boolean } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = opts.boundary ?? `----hostile${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename
      ? `form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type ?? 'text/html'}`
      : `form-data; name="${p.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  if (opts.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const declared = opts.declared === undefined ? boundary : opts.declared;
  return {
    payload: Buffer.concat(chunks),
    headers: {
      'content-type':
        declared === null ? 'multipart/form-data' : `multipart/form-data; boundary=${declared}`,
    },
  };
}

const UPLOAD_ROUTES: Array<{ name: string; url: () => string; textField: string; partner?: true }> =
  [
    { name: 'POST /ingest', url: () => '/ingest', textField: 'title' },
    { name: 'POST /reports', url: () => '/reports', textField: 'title' },
    {
      name: 'POST /ingest/{id}/uploads',
      url: () => `/ingest/${reportId}/uploads`,
      textField: 'title',
    },
    {
      name: 'partner upload',
      url: () => `/reports/${reportId}/attachments/system`,
      textField: 'partner_id',
      partner: true,
    },
  ];

function upload(route: (typeof UPLOAD_ROUTES)[number], body: ReturnType<typeof form>) {
  return gw.app.inject({
    method: 'POST',
    url: route.url(),
    headers: {
      ...(route.partner ? { 'x-partner-signature': 'a'.repeat(64) } : alice.headers()),
      ...body.headers,
    },
    payload: body.payload,
    remoteAddress: freshIp(),
  });
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('upload forms that cannot be read or stored', () => {
  for (const route of UPLOAD_ROUTES) {
    // Partner attachments are PDFs or images.
    const file = route.partner
      ? { name: 'file', value: PNG, filename: 'a.png', type: 'image/png' }
      : { name: 'file', value: html, filename: 'a.html' };
    const cases: Array<[string, ReturnType<typeof form>, RegExp]> = [
      [
        `a NUL character in ${route.textField}`,
        form([file, { name: route.textField, value: NUL }]),
        /NUL/,
      ],
      ['a NUL character in note', form([file, { name: 'note', value: NUL }]), /NUL/],
      ['no boundary', form([file], { declared: null }), /multipart/],
      ['no closing boundary', form([file], { close: false }), /multipart/],
      [
        'a boundary that does not match',
        form([file], { declared: 'not-the-boundary' }),
        /multipart/,
      ],
      ['two file parts', form([file, { ...file, filename: 'b' }]), /one file part/],
      [
        'a second file part under another name',
        form([file, { ...file, name: 'extra' }]),
        /one file part/,
      ],
      [
        'too many fields',
        form([file, ...Array.from({ length: 12 }, (_v, i) => ({ name: `f${i}`, value: 'x' }))]),
        /fields/,
      ],
    ];
    for (const [what, body, detail] of cases) {
      it(`${route.name}: answers 400 for ${what}, and stores nothing`, async () => {
        const files = await storedFiles();
        const before = await rowCounts();
        const res = await upload(route, body);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'bad_request',
          detail: expect.stringMatching(detail),
        });
        expect(await storedFiles()).toEqual(files);
        expect(await rowCounts()).toEqual(before);
      });
    }
  }
});
