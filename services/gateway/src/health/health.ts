import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HealthResponse, type DependencyState } from '@reports/contracts';
import { isNatsConnected } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';

async function probe(check: () => Promise<unknown>, timeoutMs = 2000): Promise<DependencyState> {
  const started = performance.now();
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs).unref(),
      ),
    ]);
    return { status: 'up', latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'down',
      latency_ms: Math.round(performance.now() - started),
      error: (error as Error).message,
    };
  }
}

/** `GET /health`: the state of each dependency; 503 when any is down, for load balancers. */
export async function healthRoutes(
  app: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['operations'],
        summary: 'State of the gateway and each dependency',
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (_request, reply) => {
      const [postgres, nats, objectStore] = await Promise.all([
        probe(() => deps.pool.query('SELECT 1')),
        probe(async () => {
          // Known down: no need to wait the probe's timeout for the account request.
          if (!isNatsConnected(deps.nats.nc)) throw new Error('no connection to NATS');
          await deps.nats.jsm.getAccountInfo();
        }),
        probe(() => deps.objectStore.ping()),
      ]);
      const dependencies = { postgres, nats, object_store: objectStore };
      const ok = Object.values(dependencies).every((d) => d.status === 'up');
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', dependencies });
    },
  );
}
