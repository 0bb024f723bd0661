import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { partnerUploadCanonicalString } from '@reports/contracts';
import { hostileText, hostileValue, toJson, type Hostile } from './values.js';

/**
 * `npm run fuzz`: every operation of the gateway's OpenAPI document, driven with hostile values
 * drawn by fast-check from a seed. A finding is a 5xx (other than the 503s that say a provider
 * is not configured), a request with no complete answer within the deadline (a hang), or, after
 * the run, an orphan (see orphans.ts). See docs/adr/121-fuzz-run.md.
 */

interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  minimum?: number;
  minLength?: number;
  minItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  json: JsonSchema | null;
  multipart: boolean;
  security: string[];
}

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        description?: string;
        security?: Record<string, unknown>[];
      }
    >
  >;
}

/** What the fuzz run signs and addresses its requests with: two tenants' sessions and their ids. */
export interface FuzzTarget {
  url: string;
  /** Bearer token of the tenant whose objects the requests name. */
  token: string;
  /** Bearer token of another tenant (cross-tenant requests must be 404, never 5xx). */
  otherToken: string;
  adminHash: string;
  partnerSecret: string;
  ids: { report: string; attachment: string; conversation: string; tenant: string };
}

export interface Finding {
  kind: '5xx' | 'hang' | 'orphan';
  operation: string;
  case: string;
  detail: string;
}

export interface FuzzResult {
  requests: number;
  /** Conversations created on purpose (`POST /conversations` answered 201): empty by design. */
  createdConversations: string[];
  /** Paths of deletions that succeeded: a deleted report keeps its stored files (the spec). */
  deletedPaths: string[];
  statuses: Record<string, number>;
  findings: Finding[];
}

export interface FuzzOptions {
  seed: number;
  /** Cases per operation. */
  perOperation: number;
  /** A request without a complete answer by then is a hang. */
  deadlineMs: number;
  /** Requests in flight at once. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

/** 503s that say a provider or secret is not configured here: the spec's answer, not a fault. */
const CONFIGURATION_503 = new Set([
  'ocr_unavailable',
  'secrets_unavailable',
  'partner_jwt_disabled',
  'partner_hmac_disabled',
]);

const SMALL_HTML = Buffer.from(
  '<!doctype html><html><head><title>Fuzz</title></head><body><h1>Roof</h1><p>Slate roof in fair condition.</p></body></html>',
);

export function operations(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content ?? {};
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        json: content['application/json']?.schema ?? null,
        multipart: /multipart\/form-data/.test(op.description ?? ''),
        security: (op.security ?? []).flatMap((s) => Object.keys(s)),
      });
    }
  }
  return out;
}

/** A valid value for a parameter or field, preferring the target's own ids by name. */
function validValue(name: string, schema: JsonSchema | undefined, target: FuzzTarget): unknown {
  const s = schema?.anyOf?.[0] ?? schema?.oneOf?.[0] ?? schema ?? {};
  if (s.enum?.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (s.format === 'uuid' || /(^|_)id$/.test(name)) {
    if (name === 'attachment_id') return target.ids.attachment;
    if (name === 'conv_id' || name === 'conversation_id') return target.ids.conversation;
    if (name === 'tenant_id') return target.ids.tenant;
    if (type === 'string' && s.format !== 'uuid' && name !== 'report_id' && name !== 'target_id')
      return 'fuzz-id';
    return target.ids.report;
  }
  if (name === 'hash') return target.adminHash;
  if (name === 'report_ids' || name === 'compare_report_ids') return null;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => validValue(name, s.items, target));
    case 'object': {
      const obj: Record<string, unknown> = {};
      for (const key of s.required ?? []) obj[key] = validValue(key, s.properties?.[key], target);
      return obj;
    }
    default:
      return name === 'email' ? 'fuzz@example.com' : 'roof condition';
  }
}

/** Paths of the fields of a JSON body that can be replaced: top level and one level down. */
function fieldPaths(schema: JsonSchema | null): string[][] {
  if (!schema?.properties) return [];
  const paths: string[][] = [];
  for (const [key, sub] of Object.entries(schema.properties)) {
    paths.push([key]);
    for (const inner of Object.keys(sub.properties ?? {})) paths.push([key, inner]);
  }
  return paths;
}

function setPath(obj: Record<string, unknown>, path: string[], value: unknown): void {
  let at: Record<string, unknown> = obj;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path.at(-1)!] = value;
}

interface Case {
  label: string;
  /** The hostile value, abbreviated, to name in a finding. */
  value: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer | FormData;
}

type Mutation =
  | { at: 'path' | 'query' | 'header'; name: string; value: Hostile }
  | { at: 'body'; field: string[]; value: Hostile }
  | { at: 'raw-body'; kind: string }
  | { at: 'auth'; kind: 'none' | 'garbage' | 'other-tenant' }
  | { at: 'multipart'; kind: string; value: Hostile };

const RAW_BODIES = [
  'invalid-json',
  'empty',
  'json-array',
  'text-plain',
  'form-urlencoded',
  'huge-json',
] as const;
const MULTIPART_KINDS = [
  'no-boundary',
  'no-closing-boundary',
  'wrong-boundary',
  'two-files',
  'many-fields',
  'no-file',
  'hostile-field',
  'empty-file',
  'wrong-type-file',
  'valid',
] as const;

function mutations(op: Operation): fc.Arbitrary<Mutation> {
  // Weighted towards what reaches the handlers (fields and multipart parts) over refusals.
  const options: fc.WeightedArbitrary<Mutation>[] = [
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('none', 'garbage', 'other-tenant')
        .map((kind): Mutation => ({ at: 'auth', kind })),
    },
  ];
  const params = op.parameters.filter((p) => p.in !== 'header' || p.name !== 'last-event-id');
  if (params.length)
    options.push({
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...params), hostileText)
        .map(([p, value]): Mutation => ({ at: p.in, name: p.name, value })),
    });
  const fields = fieldPaths(op.json);
  if (fields.length)
    options.push({
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom(...fields), hostileValue)
        .map(([field, value]): Mutation => ({ at: 'body', field, value })),
    });
  if (op.json)
    options.push({
      weight: 1,
      arbitrary: fc.constantFrom(...RAW_BODIES).map((kind): Mutation => ({ at: 'raw-body', kind })),
    });
  if (op.multipart)
    options.push({
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom(...MULTIPART_KINDS), hostileText)
        .map(([kind, value]): Mutation => ({ at: 'multipart', kind, value })),
    });
  return fc.oneof(...options);
}

function abbreviate(value: unknown): string {
  const text = value instanceof Object ? toJson(value) : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} chars)` : text;
}

function describe(m: Mutation): string {
  switch (m.at) {
    case 'auth':
      return `auth:${m.kind}`;
    case 'raw-body':
      return `body:${m.kind}`;
    case 'body':
      return `body.${m.field.join('.')}=${m.value.kind}`;
    case 'multipart':
      return `multipart:${m.kind}${m.kind === 'hostile-field' ? `=${m.value.kind}` : ''}`;
    default:
      return `${m.at}.${m.name}=${m.value.kind}`;
  }
}

/** A raw multipart body, broken as the case asks; `fields` go before the file part. */
function multipartBody(
  kind: string,
  fields: Record<string, string>,
  hostile: string,
): { body: Buffer; contentType: string } {
  const boundary = 'fuzzboundary7MA4YWxkTrZu0gW';
  const part = (name: string, value: string | Buffer, file?: { filename: string; type: string }) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${
          file ? `; filename="${file.filename}"\r\nContent-Type: ${file.type}` : ''
        }\r\n\r\n`,
      ),
      Buffer.isBuffer(value) ? value : Buffer.from(value),
      Buffer.from('\r\n'),
    ]);
  const htmlFile = { filename: 'fuzz.html', type: 'text/html' };
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => part(k, v));
  switch (kind) {
    case 'two-files':
      parts.push(part('file', SMALL_HTML, htmlFile), part('file', SMALL_HTML, htmlFile));
      break;
    case 'many-fields':
      for (let i = 0; i < 200; i += 1) parts.push(part(`f${i}`, 'x'));
      parts.push(part('file', SMALL_HTML, htmlFile));
      break;
    case 'no-file':
      break;
    case 'hostile-field':
      parts.push(part('title', hostile), part('note', hostile), part('file', SMALL_HTML, htmlFile));
      break;
    case 'empty-file':
      parts.push(part('file', Buffer.alloc(0), htmlFile));
      break;
    case 'wrong-type-file':
      parts.push(part('file', Buffer.from('MZ\u0090\u0000 not a document'), htmlFile));
      break;
    default:
      parts.push(part('file', SMALL_HTML, htmlFile));
  }
  if (kind !== 'no-closing-boundary') parts.push(Buffer.from(`--${boundary}--\r\n`));
  const contentType =
    kind === 'no-boundary'
      ? 'multipart/form-data'
      : kind === 'wrong-boundary'
        ? 'multipart/form-data; boundary=somethingelse'
        : `multipart/form-data; boundary=${boundary}`;
  return { body: Buffer.concat(parts), contentType };
}

/**
 * Percent-encodes any string, lone surrogates included: those go out as their WTF-8 bytes (for
 * U+D800, `%ED%A0%80`), invalid UTF-8 as a hostile client would send it.
 */
export function encodeHostile(value: string): string {
  let out = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

let ipCounter = 0;
/** A fresh client address per request, so per-address rate limits do not hide the routes. */
function nextIp(): string {
  ipCounter += 1;
  return `10.99.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}`;
}

function buildCase(op: Operation, m: Mutation, target: FuzzTarget): Case {
  const headers: Record<string, string> = { 'x-forwarded-for': nextIp() };
  const bearer = op.security.includes('bearerAuth') || op.security.length === 0;
  if (bearer) headers.authorization = `Bearer ${target.token}`;
  if (m.at === 'auth') {
    if (m.kind === 'none') delete headers.authorization;
    if (m.kind === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.';
    if (m.kind === 'other-tenant') headers.authorization = `Bearer ${target.otherToken}`;
  }
  let path = op.path;
  const query = new Map<string, string>();
  for (const p of op.parameters) {
    const hostile = m.at === p.in && m.name === p.name ? String(m.value.value) : null;
    const value = hostile ?? String(validValue(p.name, p.schema, target));
    if (p.in === 'path') {
      const encoded =
        p.name === '*' ? value.split('/').map(encodeHostile).join('/') : encodeHostile(value);
      path = path.replace(`{${p.name}}`, encoded);
    } else if (p.in === 'query') {
      if (hostile !== null || p.required || p.name === 'hash') query.set(p.name, value);
    } else if (p.name !== 'last-event-id') {
      headers[p.name] = /^[\x20-\x7e]*$/.test(value) ? value : encodeHostile(value);
    }
  }
  if (path.includes('{*}')) path = path.replace('{*}', 'tenants/x/reports/y/original/source.pdf');
  if (op.security.includes('adminHash') && !query.has('hash')) query.set('hash', target.adminHash);
  const qs = [...query].map(([k, v]) => `${k}=${encodeHostile(v)}`).join('&');
  const c: Case = {
    label: describe(m),
    value: 'value' in m ? abbreviate(m.value.value) : '',
    method: op.method,
    path: `${path}${qs ? `?${qs}` : ''}`,
    headers,
  };

  if (op.json) {
    const body = validValue('body', op.json, target) as Record<string, unknown>;
    if (m.at === 'body') setPath(body, m.field, m.value.value);
    c.headers['content-type'] = 'application/json';
    c.body = toJson(body);
    if (m.at === 'raw-body') {
      switch (m.kind) {
        case 'invalid-json':
          c.body = '{"query": "roof", ';
          break;
        case 'empty':
          c.body = '';
          break;
        case 'json-array':
          c.body = '[]';
          break;
        case 'text-plain':
          c.headers['content-type'] = 'text/plain';
          break;
        case 'form-urlencoded':
          c.headers['content-type'] = 'application/x-www-form-urlencoded';
          c.body = 'query=roof&top_k=3';
          break;
        case 'huge-json':
          c.body = toJson({ ...body, pad: 'x'.repeat(3 * 1024 * 1024) });
          break;
      }
    }
  } else if (op.multipart) {
    const partner = op.security.includes('partnerSignature');
    const fields: Record<string, string> = partner
      ? { partner_id: `fuzz-${ipCounter}`, attachment_type: 'quote' }
      : {};
    const kind = m.at === 'multipart' ? m.kind : 'valid';
    const hostile = m.at === 'multipart' ? String(m.value.value) : '';
    const { body, contentType } = multipartBody(kind, fields, hostile);
    c.headers['content-type'] = contentType;
    c.body = body;
    if (partner) {
      const canonical = partnerUploadCanonicalString({
        report_id: target.ids.report,
        partner_id: fields.partner_id!,
        attachment_type: fields.attachment_type!,
        file_sha256: createHash('sha256').update(SMALL_HTML).digest('hex'),
      });
      c.headers['x-partner-signature'] = createHmac('sha256', target.partnerSecret)
        .update(canonical, 'utf8')
        .digest('hex');
    }
  }
  return c;
}

async function send(
  target: FuzzTarget,
  c: Case,
  deadlineMs: number,
): Promise<{ status: number; code?: string; id?: string } | 'hang'> {
  const signal = AbortSignal.timeout(deadlineMs);
  try {
    const res = await fetch(`${target.url}${c.path}`, {
      method: c.method,
      headers: c.headers,
      body: c.method === 'GET' || c.method === 'HEAD' ? undefined : c.body,
      signal,
      redirect: 'manual',
    });
    if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await res.body?.cancel();
      return { status: res.status };
    }
    const text = await res.text();
    try {
      const parsed = JSON.parse(text) as { code?: string; id?: string };
      return { status: res.status, code: parsed.code, id: parsed.id };
    } catch {
      return { status: res.status };
    }
  } catch (error) {
    if (signal.aborted) return 'hang';
    throw error;
  }
}

/** Drives every operation of `doc` with `perOperation` hostile cases drawn from `seed`. */
export async function fuzzRoutes(
  doc: OpenApiDocument,
  target: FuzzTarget,
  opts: FuzzOptions,
): Promise<FuzzResult> {
  const cases: { op: Operation; c: Case }[] = [];
  for (const [index, op] of operations(doc).entries()) {
    const drawn = fc.sample(mutations(op), { seed: opts.seed + index, numRuns: opts.perOperation });
    for (const m of drawn) cases.push({ op, c: buildCase(op, m, target) });
  }
  // Deletions last: a valid one removes the report or conversation the other cases address.
  cases.sort((a, b) => Number(a.c.method === 'DELETE') - Number(b.c.method === 'DELETE'));
  const result: FuzzResult = {
    requests: 0,
    createdConversations: [],
    deletedPaths: [],
    statuses: {},
    findings: [],
  };
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const { op, c } = cases[next++]!;
      const operation = `${op.method} ${op.path}`;
      let outcome: Awaited<ReturnType<typeof send>>;
      try {
        outcome = await send(target, c, opts.deadlineMs).catch((error: unknown) => {
          // A kept-alive socket the server closed just as it was reused fails the request
          // before the server saw it: retried once on a new connection (a crash fails again).
          if (c.label === 'body:huge-json') throw error;
          result.statuses.retried = (result.statuses.retried ?? 0) + 1;
          return send(target, c, opts.deadlineMs);
        });
      } catch (error) {
        // Fastify answers 413 to an oversized body and closes the socket without reading the
        // rest; a client still sending then sees the reset instead of the answer.
        if (c.label === 'body:huge-json') {
          result.statuses['413-reset'] = (result.statuses['413-reset'] ?? 0) + 1;
          continue;
        }
        result.findings.push({
          kind: '5xx',
          operation,
          case: c.label,
          detail: `connection failed: ${(error as Error).message} (${String((error as Error).cause)}); value ${c.value}`,
        });
        continue;
      } finally {
        result.requests += 1;
        opts.onProgress?.(result.requests, cases.length);
      }
      if (outcome === 'hang') {
        result.findings.push({
          kind: 'hang',
          operation,
          case: c.label,
          detail: `no answer in ${opts.deadlineMs} ms; value ${c.value}`,
        });
        result.statuses.hang = (result.statuses.hang ?? 0) + 1;
        continue;
      }
      result.statuses[outcome.status] = (result.statuses[outcome.status] ?? 0) + 1;
      if (operation === 'POST /conversations' && outcome.status === 201 && outcome.id)
        result.createdConversations.push(outcome.id);
      if (c.method === 'DELETE' && outcome.status === 200) result.deletedPaths.push(c.path);
      const configured503 = outcome.status === 503 && CONFIGURATION_503.has(outcome.code ?? '');
      if (outcome.status >= 500 && !configured503)
        result.findings.push({
          kind: '5xx',
          operation,
          case: c.label,
          detail: `${outcome.status} ${outcome.code ?? ''}; value ${c.value}`,
        });
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  return result;
}
