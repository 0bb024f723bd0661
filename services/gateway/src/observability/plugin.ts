import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import {
  currentTracing,
  httpRequestDuration,
  metricsText,
  withLogContext,
  type LogContext,
} from '@reports/platform';
import type {} from '../auth/types.js';

/**
 * Operations of the gateway's HTTP side: Fastify spans (request, handler) under
 * the http instrumentation's server span when tracing is on; the tenant and report
 * of each request on every log line written while it is handled; HTTP latency by
 * route template; and `GET /metrics` (Prometheus text, hidden from the API docs).
 */
async function observability(app: FastifyInstance): Promise<void> {
  if (currentTracing().enabled) {
    const otel = new FastifyOtelInstrumentation({
      registerOnInitialization: false,
      // Hook spans (rate limit, CORS, auth...) would triple every trace; handlers suffice.
      instrumentHooks: false,
      ignorePaths: (route) => route.url === '/metrics' || route.url === '/health',
    });
    await app.register(otel.plugin());
  }

  app.addHook('onRequest', (request, _reply, done) => {
    // Read lazily: the tenant is known only once the token is verified.
    const context: LogContext = {
      get tenant_id() {
        return request.user?.tenant_id;
      },
      get report_id() {
        const params = request.params as Record<string, unknown> | undefined;
        return typeof params?.report_id === 'string' ? params.report_id : undefined;
      },
    };
    withLogContext(context, () => done());
  });

  app.addHook('onResponse', async (request, reply) => {
    httpRequestDuration.observe(
      {
        method: request.method,
        // The route template, never the raw URL: ids would make a series per report.
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  app.get(
    '/metrics',
    { schema: { hide: true }, config: { rateLimit: false } },
    async (_request, reply) => {
      const { contentType, body } = await metricsText();
      return reply.type(contentType).header('cache-control', 'no-store').send(body);
    },
  );
}

export const observabilityPlugin = fp(observability, { name: 'observability' });
