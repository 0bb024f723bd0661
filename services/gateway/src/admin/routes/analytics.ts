import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  RetrievalQueriesQuery,
  RetrievalQueryList,
  RetrievalStats,
  RetrievalStatsQuery,
} from '@reports/contracts';
import type { AdminClient } from '@reports/platform';
import { HashQuery, security, TAGS, errors, withoutHash } from '../schemas.js';

/** `GET /admin/retrieval/stats` and `GET /admin/retrieval/queries` (docs/adr/134). */
export function analyticsRoutes(fastify: FastifyInstance, admin: AdminClient): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/admin/retrieval/stats',
    {
      schema: {
        tags: TAGS,
        summary: 'Retrieval and chat analytics over the last N days',
        description:
          'Queries per day, zero-result rate, rerank and HyDE use, rerank fallbacks, p50/p95 of embed, retrieval, ' +
          'rerank and total time (each the upper bound of its histogram bucket: 1 ms wide up to 10 ms, then about ' +
          'a fifth of its value), chat fallbacks and their reasons, and thumbs per chat mode. All tenants, or one ' +
          'with `tenant_id`. Days are UTC calendar days, today included.',
        security,
        querystring: RetrievalStatsQuery.extend(HashQuery.shape),
        response: { 200: RetrievalStats, ...errors },
      },
    },
    async (request) => admin.retrievalStats(withoutHash(request.query)),
  );

  app.get(
    '/admin/retrieval/queries',
    {
      schema: {
        tags: TAGS,
        summary: 'The logged retrieval queries of the last N days, newest first',
        description:
          '`zero_results=true` lists only the queries that found nothing, for tuning. All tenants, or one with ' +
          '`tenant_id`.',
        security,
        querystring: RetrievalQueriesQuery.extend(HashQuery.shape),
        response: { 200: RetrievalQueryList, ...errors },
      },
    },
    async (request) => admin.retrievalQueries(withoutHash(request.query)),
  );
}
