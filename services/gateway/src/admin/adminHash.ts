import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '@reports/contracts';

/**
 * The admin hash carried by a request: the `X-Admin-Hash` header first, the
 * `hash` query parameter only when the header is absent (spec).
 */
export function presentedAdminHash(
  request: Pick<FastifyRequest, 'headers' | 'query'>,
): string | undefined {
  const header = request.headers['x-admin-hash'];
  if (typeof header === 'string') return header;
  if (Array.isArray(header)) return header[0];
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.hash;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Constant-time comparison whatever the lengths: both sides are hashed to 32
 * bytes first, so neither the content nor the length of the secret leaks
 * through timing.
 */
export function adminHashMatches(presented: string, configured: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(configured).digest();
  return timingSafeEqual(a, b);
}

/**
 * Decides an admin call: 403 `admin disabled` when no hash is configured,
 * 403 `forbidden` when the presented one is missing or wrong.
 */
export function checkAdminHash(
  presented: string | undefined,
  configured: string | undefined,
): void {
  if (!configured) throw new AppError('admin_disabled');
  if (presented === undefined || !adminHashMatches(presented, configured))
    throw new AppError('forbidden');
}

/** preHandler for `/admin/*` routes. */
export function adminGuard(configured: string | undefined) {
  return async (request: FastifyRequest): Promise<void> => {
    checkAdminHash(presentedAdminHash(request), configured);
  };
}
