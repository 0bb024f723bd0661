import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../deps.js';
import { partnerStatusRoute } from './status.js';
import { partnerUploadRoute } from './upload.js';

/**
 * The partner endpoints, authenticated by `X-Partner-Signature` (HMAC-SHA-256
 * with PARTNER_HMAC_SECRET) instead of a JWT. The report is found by id alone:
 * the shared secret is the credential, and it covers every tenant's reports
 * (docs/adr/019).
 */
export async function partnerRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  partnerUploadRoute(fastify, deps);
  partnerStatusRoute(fastify, deps);
}
