import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminRetrieveBody,
  ErrorBody,
  ReportIdParams,
  RetrieveBody,
  RetrieveResponse,
  TOP_K_DEFAULT,
  TOP_K_MAX,
} from '@reports/contracts';
import { retrievalClient } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import { currentUser } from '../auth/types.js';
import { adminGuard } from '../admin/adminHash.js';
import { LIMITS } from '../limits/rateLimit.js';

const errors = {
  401: ErrorBody,
  404: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
  503: ErrorBody,
};

const FLOW =
  'Hybrid retrieval over the report folder (the main file and all its attachments): BM25 keyword leg ' +
  '(unaccented, unstemmed, prefix matching) and pgvector leg, reciprocal rank fusion (k = 60, outer join), ' +
  'rerank when enabled (on failure, 429 or after 8 s the fused order, `reranked: false`), HyDE for queries ' +
  `under 4 words when a model can write the passage, diversity across source types. \`top_k\`: default ${TOP_K_DEFAULT}, ` +
  `1 to ${TOP_K_MAX}. Chunks found by one leg only have null rank and score for the other.`;

/** `POST /retrieve` (JWT) and `POST /admin/retrieve/{report_id}` (admin hash): the retrieval service over NATS. */
export async function retrievalRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const retrieval = retrievalClient(deps.nats.nc);

  app.post(
    '/retrieve',
    {
      preHandler: app.authenticate,
      config: { rateLimit: LIMITS.retrieve },
      schema: {
        tags: ['retrieval'],
        summary:
          'Retrieve the chunks of a report folder, a section or several reports that best answer a query',
        description: `${FLOW} \`scope.type\`: \`folder\` (\`report_id\`: the report and its attachments); \`section\` (\`report_id\` and \`section\`, by name or slug as \`GET /reports/{id}/sections/{section_name}\` accepts it: that section's chunks and its subsections'; 404 for an unknown section, 422 when \`section\` is missing); \`multi_report\` (\`report_ids\`: 2 to 20 distinct reports, ranked as one with BM25 statistics over their union, HyDE always on, at least one slot for another report when one would take them all; each chunk's \`report_id\` names its report; 422 for fewer than 2, more than 20 or a repeated id). A report outside the caller's tenant (any of them for multi_report) answers 404; 503 when the query cannot be embedded.`,
        security: [{ bearerAuth: [] }],
        body: RetrieveBody,
        response: { 200: RetrieveResponse, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return retrieval.retrieve({
        caller: { kind: 'user', user_id: user.id, tenant_id: user.tenant_id },
        scope: request.body.scope,
        query: request.body.query,
        top_k: request.body.top_k,
      });
    },
  );

  app.post(
    '/admin/retrieve/:report_id',
    {
      preHandler: adminGuard(deps.config.ADMIN_HASH),
      schema: {
        tags: ['admin'],
        summary:
          'The full retrieve flow on any report, in its own tenant (rerank and diversity testing)',
        description: `${FLOW} Admin hash in \`X-Admin-Hash\` (or query \`hash\`).`,
        security: [{ adminHash: [] }],
        params: ReportIdParams,
        body: AdminRetrieveBody,
        response: { 200: RetrieveResponse, 403: ErrorBody, ...errors },
      },
    },
    async (request) =>
      retrieval.retrieve({
        caller: { kind: 'admin' },
        scope: { type: 'folder', report_id: request.params.report_id },
        query: request.body.query,
        top_k: request.body.top_k,
      }),
  );
}
