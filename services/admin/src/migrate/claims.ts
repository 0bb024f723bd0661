import { createHash, randomUUID } from 'node:crypto';
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
  type Logger,
  type Nats,
  type ObjectStore,
  type Pool,
  type PoolClient,
} from '@reports/platform';

export interface ClaimDeps {
  pool: Pool;
  nats: Nats;
  objectStore: ObjectStore;
  logger: Logger;
}

const NO_CLAIM = 'no claim is ready for this account';

/** The claim flow keys emails trimmed and lowercased; a token without an email has no claim. */
export function claimEmail(email: string | null | undefined): string | null {
  const e = email?.trim().toLowerCase();
  return e ? e : null;
}

async function count(db: Pool | PoolClient, sql: string, args: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(sql, args);
  return rows[0]?.n ?? 0;
}

const LEGACY_COUNT = 'SELECT count(*)::int AS n FROM legacy_reports WHERE owner_email = $1';
const CLAIMED_COUNT = 'SELECT count(*)::int AS n FROM legacy_claimed_reports WHERE email = $1';

/** `GET /migrate/status`: none, ready (with the v1 reports waiting) or claimed (with those imported). */
export async function migrateStatus(pool: Pool, caller: MigrateCaller): Promise<MigrateStatus> {
  const email = claimEmail(caller.email);
  if (!email) return { status: 'none', reports: 0, claimed_at: null };
  const { rows } = await pool.query<{ status: 'ready' | 'claimed'; claimed_at: Date | null }>(
    'SELECT status, claimed_at FROM legacy_claims WHERE email = $1',
    [email],
  );
  const claim = rows[0];
  if (!claim) return { status: 'none', reports: 0, claimed_at: null };
  return {
    status: claim.status,
    reports: await count(pool, claim.status === 'claimed' ? CLAIMED_COUNT : LEGACY_COUNT, [email]),
    claimed_at: claim.claimed_at?.toISOString() ?? null,
  };
}

/** `POST /admin/migrate/preauth`: makes the email's claim ready; a second call changes nothing. */
export async function preauthorize(pool: Pool, req: PreauthRequest): Promise<PreauthResult> {
  const inserted = await pool.query(
    'INSERT INTO legacy_claims (email) VALUES ($1) ON CONFLICT (email) DO NOTHING',
    [req.email],
  );
  const { rows } = await pool.query<{ status: 'ready' | 'claimed' }>(
    'SELECT status FROM legacy_claims WHERE email = $1',
    [req.email],
  );
  const status = rows[0]?.status ?? 'ready';
  return {
    email: req.email,
    status,
    reports: await count(pool, status === 'claimed' ? CLAIMED_COUNT : LEGACY_COUNT, [req.email]),
    created: (inserted.rowCount ?? 0) > 0,
  };
}

interface LegacyRow {
  id: string;
  title: string | null;
  filename: string | null;
  clean_text: string;
  metadata: Record<string, unknown>;
  created_at: Date;
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
  await client.query(
    `INSERT INTO reports (id, tenant_id, created_by, report_version, filename, title, content_type, document_kind,
       size_bytes, sha256, object_key, parsed_markdown, clean_text, parsed_metadata, created_at)
     VALUES ($1, $2, $3, 1, $4, $5, 'text/markdown', 'legacy', $6, $7, $8, $9, $9, $10, $11)`,
    [
      id,
      owner.tenant_id,
      owner.user_id,
      legacy.filename?.trim() || 'legacy-report.md',
      legacy.title,
      bytes.length,
      createHash('sha256').update(bytes).digest('hex'),
      objectKey,
      legacy.clean_text,
      JSON.stringify(metadata),
      legacy.created_at,
    ],
  );
  for (const s of sections) {
    await client.query(
      `INSERT INTO sections (id, tenant_id, report_id, attachment_id, target_id, section_name, section_slug, level,
         order_in_doc, page_start, page_end, markdown)
       VALUES ($1, $2, $3, NULL, $3, $4, $5, $6, $7, NULL, NULL, $8)`,
      [randomUUID(), owner.tenant_id, id, s.name, s.slug, s.level, s.order, s.markdown],
    );
  }
  await client.query(
    `INSERT INTO legacy_claimed_reports (legacy_report_id, report_id, email, tenant_id) VALUES ($1, $2, $3, $4)`,
    [legacy.id, id, owner.email, owner.tenant_id],
  );
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
  const { rows } = await deps.pool.query<{ id: string; tenant_id: string; sections: number }>(
    `SELECT r.id, r.tenant_id, (SELECT count(*)::int FROM sections s WHERE s.target_id = r.id) AS sections
       FROM reports r WHERE r.id = ANY($1::uuid[]) AND r.status = 'uploaded'`,
    [reportIds],
  );
  for (const r of rows) {
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
    const { rows } = await client.query<{ status: 'ready' | 'claimed' }>(
      'SELECT status FROM legacy_claims WHERE email = $1 FOR UPDATE',
      [email],
    );
    const state = rows[0];
    if (!state) throw new AppError('not_found', NO_CLAIM);
    if (state.status === 'claimed') {
      const { rows: claimed } = await client.query<{ report_id: string }>(
        'SELECT report_id FROM legacy_claimed_reports WHERE email = $1 ORDER BY claimed_at, report_id',
        [email],
      );
      return { already: true, ids: claimed.map((r) => r.report_id) };
    }
    // Tenants of an external identity provider exist here only once they store something.
    await client.query(
      `INSERT INTO tenants (id, name, kind) VALUES ($1, $2, 'personal') ON CONFLICT (id) DO NOTHING`,
      [caller.tenant_id, email],
    );
    const { rows: legacy } = await client.query<LegacyRow>(
      `SELECT id, title, filename, clean_text, metadata, created_at FROM legacy_reports
        WHERE owner_email = $1 ORDER BY created_at, id`,
      [email],
    );
    const ids: string[] = [];
    for (const row of legacy) {
      ids.push(
        await importLegacyReport(client, deps.objectStore, row, {
          user_id: caller.user_id,
          tenant_id: caller.tenant_id,
          email,
        }),
      );
    }
    await client.query(
      `UPDATE legacy_claims SET status = 'claimed', claimed_at = now(), claimed_by = $2, tenant_id = $3
        WHERE email = $1`,
      [email, caller.user_id, caller.tenant_id],
    );
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
    const { rows } = await client.query<{ status: 'ready' | 'claimed' }>(
      'SELECT status FROM legacy_claims WHERE email = $1 FOR UPDATE',
      [req.email],
    );
    const state = rows[0];
    if (!state) throw new AppError('not_found', 'this email is not pre-authorised');
    if (state.status !== 'claimed')
      throw new AppError('conflict', 'this email has no claim to undo');
    const { rows: reports } = await client.query<{ id: string; object_key: string }>(
      `SELECT r.id, r.object_key FROM legacy_claimed_reports l JOIN reports r ON r.id = l.report_id
        WHERE l.email = $1`,
      [req.email],
    );
    await client.query('DELETE FROM reports WHERE id = ANY($1::uuid[])', [
      reports.map((r) => r.id),
    ]);
    await client.query(
      `UPDATE legacy_claims
          SET status = 'ready', claimed_at = NULL, claimed_by = NULL, tenant_id = NULL,
              reversals = reversals + 1, last_reversed_at = now()
        WHERE email = $1`,
      [req.email],
    );
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
export async function migrateStats(pool: Pool): Promise<MigrateStats> {
  const { rows } = await pool.query<MigrateStats>(
    `SELECT
       (SELECT count(*)::int FROM legacy_reports) AS legacy_reports,
       (SELECT count(DISTINCT owner_email)::int FROM legacy_reports) AS legacy_owners,
       (SELECT count(*)::int FROM legacy_claims) AS preauthorized,
       (SELECT count(*)::int FROM legacy_claims WHERE status = 'ready') AS ready,
       (SELECT count(*)::int FROM legacy_claims WHERE status = 'claimed') AS claimed,
       (SELECT count(*)::int FROM legacy_claims WHERE reversals > 0) AS reversed,
       (SELECT count(*)::int FROM legacy_claimed_reports) AS claimed_reports,
       (SELECT count(*)::int FROM legacy_claimed_reports l JOIN reports r ON r.id = l.report_id
         WHERE r.status = 'ready') AS claimed_reports_ready,
       (SELECT count(*)::int FROM legacy_reports lr
         WHERE NOT EXISTS (SELECT 1 FROM legacy_claims c WHERE c.email = lr.owner_email AND c.status = 'claimed'))
         AS unclaimed_reports`,
  );
  return rows[0]!;
}
