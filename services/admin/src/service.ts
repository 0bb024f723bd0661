import { ADMIN_QUEUE, AdminOps } from '@reports/contracts';
import {
  createSecretBox,
  parseSecretsKey,
  serveRpc,
  type Config,
  type RpcServer,
  type SecretBox,
  type ServiceRuntime,
} from '@reports/platform';
import { feedbackStats, listFeedback } from './feedback/feedback.js';
import { retrievalQueries, retrievalStats } from './analytics/retrieval.js';
import { listProviders, putProvider } from './providers/providers.js';
import { globalCost, tenantCost } from './cost/cost.js';
import {
  claim,
  migrateStats,
  migrateStatus,
  preauthorize,
  reverseClaim,
  type ClaimDeps,
} from './migrate/claims.js';

/** The secret box of SECRETS_KEY, or null when it is unset (storing an API key then answers 503). */
export function secretBoxFor(config: Pick<Config, 'SECRETS_KEY'>): SecretBox | null {
  const key = config.SECRETS_KEY === undefined ? null : parseSecretsKey(config.SECRETS_KEY);
  return key ? createSecretBox(key) : null;
}

/**
 * Serves every admin operation over NATS request/reply in the `admin` queue
 * group (replicas share the load). The gateway has checked the admin hash, or
 * the caller's JWT for the claim flow, before any request arrives here.
 */
export async function startAdmin(
  rt: Pick<ServiceRuntime, 'config' | 'logger' | 'pool' | 'nats' | 'objectStore' | 'clock'>,
): Promise<() => Promise<void>> {
  const { pool, nats, logger } = rt;
  const secrets = secretBoxFor(rt.config);
  if (!secrets) logger.warn('SECRETS_KEY is unset: provider API keys cannot be stored');
  const claimDeps: ClaimDeps = { pool, nats, objectStore: rt.objectStore, logger, clock: rt.clock };
  const opts = { queue: ADMIN_QUEUE, logger };
  const nc = nats.nc;
  const servers: RpcServer[] = [
    serveRpc(nc, AdminOps.feedbackList, opts, (q) => listFeedback(pool, q)),
    serveRpc(nc, AdminOps.feedbackStats, opts, (q) => feedbackStats(pool, q)),
    serveRpc(nc, AdminOps.retrievalStats, opts, (q) => retrievalStats(pool, q)),
    serveRpc(nc, AdminOps.retrievalQueries, opts, (q) => retrievalQueries(pool, q)),
    serveRpc(nc, AdminOps.providersList, opts, (q) => listProviders(pool, q)),
    serveRpc(nc, AdminOps.providersPut, opts, (req) => putProvider(pool, secrets, req)),
    serveRpc(nc, AdminOps.costGlobal, opts, (q) => globalCost(pool, q)),
    serveRpc(nc, AdminOps.costTenant, opts, (q) => tenantCost(pool, q)),
    serveRpc(nc, AdminOps.migratePreauth, opts, (req) => preauthorize(pool, req)),
    serveRpc(nc, AdminOps.migrateStats, opts, () => migrateStats(pool)),
    serveRpc(nc, AdminOps.migrateReverseClaim, opts, (req) => reverseClaim(claimDeps, req)),
    serveRpc(nc, AdminOps.migrateStatus, opts, (caller) => migrateStatus(pool, caller)),
    serveRpc(nc, AdminOps.migrateClaim, opts, (caller) => claim(claimDeps, caller)),
  ];
  // Subscriptions are registered once the server has them: a request sent right
  // after start-up must find a responder.
  await nc.flush();
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}
