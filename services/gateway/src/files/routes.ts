import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, ErrorBody } from '@reports/contracts';
import { validateObjectKey, type Clock, type ObjectStore } from '@reports/platform';
import { SERVABLE_PREFIX, checkFileLink } from './signing.js';
import { LIMITS } from '../limits/rateLimit.js';

function servableKey(key: string): boolean {
  if (!key.startsWith(SERVABLE_PREFIX)) return false;
  try {
    validateObjectKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * `GET /files/<key>?expires=&sig=`: serves a stored object to whoever holds a
 * link the gateway signed (local object store; docs/adr/018). Keys outside
 * `tenants/` are never served (404); a bad or expired signature is 403.
 */
export async function fileRoutes(
  fastify: FastifyInstance,
  { objectStore, secret, clock }: { objectStore: ObjectStore; secret: Buffer; clock: Clock },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/files/*',
    {
      config: { rateLimit: LIMITS.files },
      schema: {
        tags: ['files'],
        summary: 'A stored file behind an expiring signed link (local object store)',
        description:
          'Links come from `GET /ingest/{id}/figures` (`storage_url`, `original_url`); they carry `expires` (unix seconds) and `sig` (HMAC-SHA256 of key and expiry).',
        querystring: z.object({ expires: z.string().optional(), sig: z.string().optional() }),
        // The file itself (streamed as it is stored, so no serializer touches it).
        response: { 200: z.unknown().describe('the stored file'), 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!servableKey(key)) throw new AppError('not_found');
      const check = checkFileLink(
        secret,
        key,
        request.query.expires,
        request.query.sig,
        clock.nowSeconds(),
      );
      if (check !== 'ok') {
        throw new AppError(
          'invalid_file_signature',
          check === 'expired' ? 'the link has expired' : 'the link is invalid',
        );
      }
      const info = await objectStore.stat(key);
      if (!info) throw new AppError('not_found');
      const remaining = Math.max(0, Number(request.query.expires) - clock.nowSeconds());
      const body = await objectStore.get(key);
      return (
        reply
          .header('content-type', info.contentType ?? 'application/octet-stream')
          .header('content-length', String(info.size))
          .header('cache-control', `private, max-age=${remaining}`)
          .header('x-content-type-options', 'nosniff')
          // A stored file is data, never a page: no scripts, no same-origin rights if opened.
          .header('content-security-policy', "default-src 'none'; img-src 'self'; sandbox")
          .header('content-disposition', 'inline')
          .send(body)
      );
    },
  );
}
