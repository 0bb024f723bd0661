import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** One operation of the gateway's OpenAPI document, e.g. `POST /admin/providers/{provider_id}`. */
export interface Operation {
  key: string;
  method: string;
  path: string;
  security: string[];
  jsonBody: boolean;
  multipart: boolean;
}

interface OpenApiOperation {
  security?: Array<Record<string, unknown>>;
  requestBody?: { content?: Record<string, unknown> };
}

/**
 * Every documented route of the app, from the OpenAPI document it generates
 * (hidden routes are the docs themselves). Tests that must cover every route
 * iterate this list, so a new route is covered, or fails a test, without anyone
 * remembering to add it.
 */
export function operations(app: FastifyInstance): Operation[] {
  const doc = app.swagger() as unknown as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const content = op.requestBody?.content ?? {};
      out.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        security: (op.security ?? []).flatMap((s) => Object.keys(s)),
        jsonBody: 'application/json' in content,
        multipart:
          'multipart/form-data' in content ||
          (method === 'post' && /ingest$|reports$|uploads$|system$/.test(path)),
      });
    }
  }
  return out;
}

/** A concrete URL for a path template: every `{param}` gets a value of the right shape. */
export function fillPath(path: string, values: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (values[name] !== undefined) return encodeURIComponent(values[name]);
    if (name === 'target_kind') return 'report';
    if (name === 'section_name') return 'roof';
    if (name === 'provider_id') return 'openai';
    return randomUUID();
  });
}
