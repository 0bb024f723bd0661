import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorBody,
  MigrateStats,
  PreauthRequest,
  PreauthResult,
  ReverseClaimRequest,
  ReverseClaimResult,
} from '@reports/contracts';
import type { AdminClient } from '@reports/platform';
import { HashQuery, security, TAGS, errors } from '../schemas.js';

/** The operator side of the legacy claim flow: preauthorise, stats, reverse a claim. */
export function adminMigrateRoutes(fastify: FastifyInstance, admin: AdminClient): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/admin/migrate/preauth',
    {
      schema: {
        tags: TAGS,
        summary: "Pre-authorise an email so that its owner's claim of v1 reports is ready",
        security,
        querystring: HashQuery,
        body: PreauthRequest,
        response: { 200: PreauthResult, 400: ErrorBody, ...errors },
      },
    },
    async (request) => admin.migratePreauth(request.body),
  );

  app.get(
    '/admin/migrate/stats',
    {
      schema: {
        tags: TAGS,
        summary: 'Claim-flow analytics',
        security,
        querystring: HashQuery,
        response: { 200: MigrateStats, ...errors },
      },
    },
    async () => admin.migrateStats({}),
  );

  app.post(
    '/admin/migrate/reverse-claim',
    {
      schema: {
        tags: TAGS,
        summary: 'Undo a claim: remove the reports it imported and make the claim ready again',
        description: '404 for an email that was never pre-authorised, 409 when it has no claim.',
        security,
        querystring: HashQuery,
        body: ReverseClaimRequest,
        response: {
          200: ReverseClaimResult,
          400: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          ...errors,
        },
      },
    },
    async (request) => admin.migrateReverseClaim(request.body),
  );
}
