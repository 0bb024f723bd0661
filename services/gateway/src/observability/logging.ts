import type { FastifyRequest } from 'fastify';
import type { Logger } from '@reports/platform';

/**
 * Query parameters that carry secrets: the admin hash (`hash`, the spec's
 * fallback for the header), a one-time sign-in token, a signed link's signature.
 */
export const SECRET_QUERY_PARAMS = ['hash', 'token_hash', 'sig'] as const;

/** The URL with the values of secret query parameters replaced, for logs. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const name of SECRET_QUERY_PARAMS) {
    if (params.has(name)) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

/** Fastify's request log fields, with the URL redacted. */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/**
 * The logger the gateway hands Fastify: its `req` serializer replaces Fastify's
 * default, so "incoming request" lines never carry an admin hash from `?hash=`.
 */
export function gatewayLogger(logger: Logger): Logger {
  return logger.child({}, { serializers: { req: requestForLog } });
}
