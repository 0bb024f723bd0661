import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { ERRORS, type ErrorBody } from '@reports/contracts';
import type { Config, Logger } from '@reports/platform';

/**
 * Every rate limit of the gateway (per client IP), the spec's and ours. Routes name theirs
 * with `config: { rateLimit: LIMITS.x }`; a route without one gets `default`, and all
 * those routes share one budget per client.
 */
export const LIMITS = {
  default: { max: 60, timeWindow: '1 minute' },
  /** `POST /ingest`, `POST /reports/upload`, `POST /reports/{id}/attachments`. */
  upload: { max: 20, timeWindow: '1 hour' },
  retrieve: { max: 60, timeWindow: '1 minute' },
  chat: { max: 30, timeWindow: '1 minute' },
  /** `GET /auth/me`. */
  profile: { max: 60, timeWindow: '1 minute' },
  models: { max: 60, timeWindow: '1 minute' },
  claim: { max: 5, timeWindow: '1 minute' },
  /** `POST /auth/magic-link`: each one sends an email. */
  magicLink: { max: 5, timeWindow: '1 minute' },
  /** `GET /files/*`: browsers load a page of thumbnails at once; 60/minute would cut that short. */
  files: { max: 600, timeWindow: '1 minute' },
  /** Partner systems upload in bursts from a few addresses, and poll status (docs/adr/019). */
  partnerUpload: { max: 120, timeWindow: '1 minute' },
  partnerStatus: { max: 600, timeWindow: '1 minute' },
  /** `POST /auth/partner-exchange`: each one may create a user (ADR 101). */
  partnerExchange: { max: 30, timeWindow: '1 minute' },
} as const;

/** Keys of the shared counters in Redis, so one Redis can serve other programs too. */
export const RATE_LIMIT_NAMESPACE = 'reports-gateway-rl:';

/**
 * Registers @fastify/rate-limit: the spec's default on every route, 429 with
 * `Retry-After` and the catalogue body. With RATE_LIMIT_REDIS_URL the counters
 * live in Redis and every gateway replica spends the same budget; without it
 * each process counts alone. A Redis that cannot be reached lets requests
 * through (logged) rather than taking the API down with it.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  config: Pick<Config, 'RATE_LIMIT_REDIS_URL'>,
  logger: Logger,
): Promise<void> {
  let redis: Redis | undefined;
  if (config.RATE_LIMIT_REDIS_URL) {
    redis = new Redis(config.RATE_LIMIT_REDIS_URL, {
      connectTimeout: 2000,
      // Fail fast while disconnected: a request must not wait on the limiter.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    let lastWarning = -Infinity;
    redis.on('error', (error: Error) => {
      if (performance.now() - lastWarning < 30_000) return;
      lastWarning = performance.now();
      logger.warn({ err: error.message }, 'rate-limit store (Redis) unavailable; not limiting');
    });
    const client = redis;
    app.addHook('onClose', async () => {
      client.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: true,
    ...LIMITS.default,
    keyGenerator: (request) => request.ip,
    ...(redis ? { redis, nameSpace: RATE_LIMIT_NAMESPACE, skipOnError: true } : {}),
    errorResponseBuilder: (_request, context): ErrorBody & { statusCode: number } => ({
      statusCode: 429,
      code: 'rate_limited',
      detail: `${ERRORS.rate_limited.detail}: ${context.max} per ${context.after}; retry later`,
    }),
  });
}
