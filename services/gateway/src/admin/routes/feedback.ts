import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  FeedbackList,
  FeedbackListQuery,
  FeedbackStatList,
  FeedbackStatsQuery,
} from '@reports/contracts';
import type { AdminClient } from '@reports/platform';
import { HashQuery, security, TAGS, errors, withoutHash } from '../schemas.js';

/** `GET /admin/feedback` and `GET /admin/feedback/stats`. */
export function feedbackRoutes(fastify: FastifyInstance, admin: AdminClient): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/admin/feedback',
    {
      schema: {
        tags: TAGS,
        summary: 'Feedback rows (thumbs on assistant messages), newest first',
        security,
        querystring: FeedbackListQuery.extend(HashQuery.shape),
        response: { 200: FeedbackList, ...errors },
      },
    },
    async (request) => admin.feedbackList(withoutHash(request.query)),
  );

  app.get(
    '/admin/feedback/stats',
    {
      schema: {
        tags: TAGS,
        summary: 'Feedback per report: total, up, down',
        security,
        querystring: FeedbackStatsQuery.extend(HashQuery.shape),
        response: { 200: FeedbackStatList, ...errors },
      },
    },
    async (request) => admin.feedbackStats(withoutHash(request.query)),
  );
}
