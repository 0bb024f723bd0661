import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClaimResult, ErrorBody, MigrateStatus, type MigrateCaller } from '@reports/contracts';
import { adminClient } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import { currentUser } from '../auth/types.js';
import { LIMITS } from '../limits/rateLimit.js';

const security = [{ bearerAuth: [] }];
const TAGS = ['migration'];

/**
 * Who claims: the JWT's user and email (the identity provider vouches for the
 * email). Claimed reports go to the caller's personal tenant: v1 reports were
 * personal, and a team workspace that happens to be active must not receive them.
 */
function caller(request: FastifyRequest): MigrateCaller {
  const user = currentUser(request);
  return { user_id: user.id, email: user.email, tenant_id: user.personal_tenant_id };
}

/** The user side of the legacy claim flow; the admin service does the work. */
export async function migrateRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const admin = adminClient(deps.nats.nc);

  app.get(
    '/migrate/status',
    {
      preParsing: app.authenticate,
      schema: {
        tags: TAGS,
        summary: "The caller's claim of v1 reports: none, ready or claimed",
        description:
          'Checked by the email of the token. `status`: `none` (not pre-authorised), `ready` (pre-authorised, ' +
          '`reports` v1 reports waiting), `claimed` (`reports` imported, `claimed_at`).',
        security,
        response: { 200: MigrateStatus, 401: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => admin.migrateStatus(caller(request)),
  );

  app.post(
    '/migrate/claim',
    {
      preParsing: app.authenticate,
      config: { rateLimit: LIMITS.claim },
      schema: {
        tags: TAGS,
        summary: "Import the caller's v1 reports into their personal tenant",
        description:
          "No body. Imports every v1 report of the caller's email as a report with `report_version` 1 (sections " +
          'from the heading split of its clean text, then annotate, embed and finalize like any upload), once: a ' +
          'repeated claim answers the same reports with `already_claimed` true. 404 when no claim is ready.',
        security,
        response: {
          200: ClaimResult,
          401: ErrorBody,
          404: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request) => admin.migrateClaim(caller(request)),
  );
}
