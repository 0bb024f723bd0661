import { randomUUID } from 'node:crypto';
import {
  AppError,
  stageMessageId,
  type ClaimResult,
  type MigrateCaller,
  type MigrateStats,
  type MigrateStatus,
  type PreauthRequest,
  type PreauthResult,
  type ReverseClaimRequest,
  type ReverseClaimResult,
} from '@reports/contracts';
import { splitLegacyText } from '@reports/documents';
import {
  newEvent,
  publishEvent,
  legacyOriginalKey,
  withTransaction,
  type Clock,
  type Logger,
  type Nats,
  type ObjectStore,
  type Pool,
  type PoolClient,
} from '@reports/platform';
import {
  claimedReportIds,
  claimedReports,
  countClaimReports,
  deleteReports,
  ensurePersonalTenant,
  findClaim,
  insertClaim,
  insertImportedReport,
  legacyReportsOf,
  lockClaim,
  markClaimed,
  markReversed,
  migrateStatsRow,
  unprocessedReports,
  type LegacyRow,
} from './store.js';

export interface ClaimDeps {
  pool: Pool;
  nats: Nats;
  objectStore: ObjectStore;
  logger: Logger;
  clock: Clock;
}

const NO_CLAIM = 'no claim is ready for this account';

/** The claim flow keys emails trimmed and lowercased; a token without an email has no claim. */
export function claimEmail(email: string | null | undefined): string | null {
  const e = email?.trim().toLowerCase();
  return e ? e : null;
}

/** `GET /migrate/status`: none, ready (with the v1 reports waiting) or claimed (with those imported). */
export async function migrateStatus(pool: Pool, caller: MigrateCaller): Promise<MigrateStatus> {
  const email = claimEmail(caller.email);
  if (!email) return { status: 'none', reports: 0, claimed_at: null };
  const claim = await findClaim(pool, email);
  if (!claim) return { status: 'none', reports: 0, claimed_at: null };
  return {
    status: claim.status,
    reports: await countClaimReports(pool, email, claim.status),
    claimed_at: claim.claimed_at?.toISOString() ?? null,
  };
}

/** `POST /admin/migrate/preauth`: makes the email's claim ready; a second call changes nothing. */
export async function preauthorize(pool: Pool, req: PreauthRequest): Promise<PreauthResult> {
  const created = await insertClaim(pool, req.email);
  const status = (await findClaim(pool, req.email))?.status ?? 'ready';
  return {
    email: req.email,
    status,
    reports: await countClaimReports(pool, req.email, status),
    created,
  };
}

/**
 * One v1 report becomes a current report of generation 1 with `report_version` 1:
 * its clean text is stored as the original, kept as `clean_text` and
 * `parsed_markdown`, and split at its headings into sections, exactly the rows a
 * parse stage would have written. The embed stage then chunks those like any other.
 */
async function importLegacyReport(
  client: PoolClient,
  objectStore: ObjectStore,
  legacy: LegacyRow,
  owner: { user_id: string; tenant_id: string; email: string },
): Promise<string> {
  const id = randomUUID();
  const bytes = Buffer.from(legacy.clean_text, 'utf8');
  const objectKey = legacyOriginalKey(owner.tenant_id, id);
  await objectStore.put(objectKey, bytes, { contentType: 'text/markdown; charset=utf-8' });
  const sections = splitLegacyText(legacy.clean_text, legacy.title);
  const metadata = {
    title: legacy.title,
    sections: sections.length,
    tables: 0,
    // Every count the parse stage records: finalize checks the rows against them.
    figures: 0,
    page_count: null,
    legacy: { id: legacy.id, created_at: legacy.created_at.toISOString(), ...legacy.metadata },
  };
  await insertImportedReport(client, { id, legacy, owner, bytes, objectKey, metadata, sections });
  return id;
}

/**
 * Hands claimed reports that have not started processing to the pipeline at the
 * stage after parse: `ReportParsed` with the parse stage's own message id, so
 * annotate, embed and finalize run as for an upload, and a repeated claim within
 * the dedupe window publishes nothing twice.
 */
async function queueForProcessing(deps: ClaimDeps, reportIds: string[]): Promise<void> {
  if (reportIds.length === 0) return;
  for (const r of await unprocessedReports(deps.pool, reportIds)) {
    const event = newEvent(
      'ReportParsed',
      {
        tenant_id: r.tenant_id,
        report_id: r.id,
        target_kind: 'report',
        target_id: r.id,
        generation: 1,
        correlation_id: r.id,
        causation_id: null,
      },
      { sections: r.sections, figures: 0, tables: 0, pages: null, cost_cents: 0 },
      deps.clock,
    );
    await publishEvent(deps.nats.js, event, stageMessageId(r.id, 'parse', 1));
  }
}

/**
 * `POST /migrate/claim`: imports the caller's v1 reports into their personal
 * tenant, once. A repeated claim answers the same reports (and queues any that
 * never reached the pipeline, e.g. after NATS was down).
 */
export async function claim(deps: ClaimDeps, caller: MigrateCaller): Promise<ClaimResult> {
  const email = claimEmail(caller.email);
  if (!email) throw new AppError('not_found', NO_CLAIM);
  const outcome = await withTransaction(deps.pool, async (client) => {
    const state = await lockClaim(client, email);
    if (!state) throw new AppError('not_found', NO_CLAIM);
    if (state === 'claimed') return { already: true, ids: await claimedReportIds(client, email) };
    await ensurePersonalTenant(client, caller.tenant_id, email);
    const ids: string[] = [];
    for (const row of await legacyReportsOf(client, email)) {
      ids.push(
        await importLegacyReport(client, deps.objectStore, row, {
          user_id: caller.user_id,
          tenant_id: caller.tenant_id,
          email,
        }),
      );
    }
    await markClaimed(client, email, caller);
    return { already: false, ids };
  });
  try {
    await queueForProcessing(deps, outcome.ids);
  } catch (error) {
    deps.logger.error({ err: error, email_reports: outcome.ids.length }, 'claim not queued');
    throw new AppError(
      'service_unavailable',
      'the claim is recorded but its reports could not be queued for processing; claim again',
      { cause: error },
    );
  }
  return {
    status: 'claimed',
    reports: outcome.ids.length,
    report_ids: outcome.ids,
    already_claimed: outcome.already,
  };
}

/**
 * `POST /admin/migrate/reverse-claim`: removes the reports a claim imported (with
 * their sections and chunks) and makes the claim ready again. 404 for an email
 * never pre-authorised, 409 when there is no claim to undo.
 */
export async function reverseClaim(
  deps: ClaimDeps,
  req: ReverseClaimRequest,
): Promise<ReverseClaimResult> {
  const removed = await withTransaction(deps.pool, async (client) => {
    const state = await lockClaim(client, req.email);
    if (!state) throw new AppError('not_found', 'this email is not pre-authorised');
    if (state !== 'claimed') throw new AppError('conflict', 'this email has no claim to undo');
    const reports = await claimedReports(client, req.email);
    await deleteReports(
      client,
      reports.map((r) => r.id),
    );
    await markReversed(client, req.email);
    return reports;
  });
  // The stored originals were written by the claim; nothing else refers to them now.
  await Promise.all(
    removed.map((r) =>
      deps.objectStore.delete(r.object_key).catch((error: unknown) => {
        deps.logger.warn({ err: error, report_id: r.id }, 'could not delete a claimed original');
      }),
    ),
  );
  return { email: req.email, status: 'ready', removed_reports: removed.length };
}

/** `GET /admin/migrate/stats`. */
export function migrateStats(pool: Pool): Promise<MigrateStats> {
  return migrateStatsRow(pool);
}
