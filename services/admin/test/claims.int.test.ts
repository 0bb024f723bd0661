import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliverPolicy } from '@nats-io/jetstream';
import {
  AdminOps,
  AppError,
  REPORTS_STREAM,
  parseEvent,
  type MigrateCaller,
} from '@reports/contracts';
import { startTestAdmin, type TestAdmin } from './support.js';

let admin: TestAdmin;

beforeAll(async () => {
  admin = await startTestAdmin();
});
afterAll(async () => {
  await admin?.close();
});

/** A v1 report as the legacy export holds it. */
async function legacyReport(
  email: string,
  fields: { title?: string; text?: string; createdAt?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await admin.db.pool.query(
    `INSERT INTO legacy_reports (id, owner_email, title, filename, clean_text, metadata, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      id,
      email,
      fields.title ?? 'Survey of 1 High Street',
      'survey.txt',
      fields.text ?? '# Roof\nSlate roof in good order.\n\n# Damp\nRising damp in the cellar.',
      JSON.stringify({ v1_status: 'done' }),
      fields.createdAt ?? '2021-03-04T05:06:07Z',
    ],
  );
  return id;
}

function caller(email: string | null): MigrateCaller {
  return { user_id: randomUUID(), email, tenant_id: randomUUID() };
}

/** Events of one report published to the REPORTS stream so far. */
async function eventsOf(tenantId: string, reportId: string) {
  const consumer = await admin.nats.js.consumers.get(REPORTS_STREAM, {
    filter_subjects: `reports.${tenantId}.${reportId}.>`,
    deliver_policy: DeliverPolicy.All,
  });
  const out = [];
  for (;;) {
    const msg = await consumer.next({ expires: 1000 });
    if (!msg) break;
    out.push(parseEvent(msg.json()));
  }
  return out;
}

describe('the claim flow', () => {
  it('answers none for an email that is not pre-authorised, or a token without email', async () => {
    await legacyReport('nobody-asked@example.com');
    await expect(
      admin.call(AdminOps.migrateStatus, caller('nobody-asked@example.com')),
    ).resolves.toEqual({
      status: 'none',
      reports: 0,
      claimed_at: null,
    });
    await expect(admin.call(AdminOps.migrateStatus, caller(null))).resolves.toMatchObject({
      status: 'none',
    });
  });

  it('refuses a claim with 404 when no claim is ready', async () => {
    const error = await admin
      .call(AdminOps.migrateClaim, caller('stranger@example.com'))
      .catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 404, detail: 'no claim is ready for this account' });
  });

  it('pre-authorises an email once, whatever its case, and counts its v1 reports', async () => {
    await legacyReport('ada@example.com');
    await legacyReport('ada@example.com');
    const first = await admin.call(AdminOps.migratePreauth, { email: ' Ada@Example.com ' });
    expect(first).toEqual({ email: 'ada@example.com', status: 'ready', reports: 2, created: true });
    const again = await admin.call(AdminOps.migratePreauth, { email: 'ada@example.com' });
    expect(again).toMatchObject({ status: 'ready', reports: 2, created: false });
    await expect(admin.call(AdminOps.migrateStatus, caller('ADA@example.com'))).resolves.toEqual({
      status: 'ready',
      reports: 2,
      claimed_at: null,
    });
  });

  it('imports the v1 reports as report_version 1 with clean text, sections and the original, and queues them after parse', async () => {
    const email = 'grace@example.com';
    const legacyId = await legacyReport(email, { title: 'Grace survey' });
    await admin.call(AdminOps.migratePreauth, { email });
    const who = caller(email);
    const result = await admin.call(AdminOps.migrateClaim, who);
    expect(result).toMatchObject({ status: 'claimed', reports: 1, already_claimed: false });
    const reportId = result.report_ids[0]!;

    const { rows } = await admin.db.pool.query(
      `SELECT tenant_id, created_by, report_version, title, clean_text, parsed_markdown, status, object_key,
              parsed_metadata, created_at FROM reports WHERE id = $1`,
      [reportId],
    );
    expect(rows[0]).toMatchObject({
      tenant_id: who.tenant_id,
      created_by: who.user_id,
      report_version: 1,
      title: 'Grace survey',
      status: 'uploaded',
      clean_text: '# Roof\nSlate roof in good order.\n\n# Damp\nRising damp in the cellar.',
    });
    expect(rows[0].parsed_markdown).toBe(rows[0].clean_text);
    expect(rows[0].parsed_metadata.legacy).toMatchObject({ id: legacyId, v1_status: 'done' });
    expect(rows[0].created_at.toISOString()).toBe('2021-03-04T05:06:07.000Z');
    expect((await admin.objectStore.getBuffer(rows[0].object_key)).toString()).toBe(
      rows[0].clean_text,
    );

    const { rows: sections } = await admin.db.pool.query(
      `SELECT section_name, section_slug, level, order_in_doc, markdown, tenant_id FROM sections
        WHERE report_id = $1 ORDER BY order_in_doc`,
      [reportId],
    );
    expect(sections).toEqual([
      {
        section_name: 'Roof',
        section_slug: 'roof',
        level: 1,
        order_in_doc: 0,
        markdown: 'Slate roof in good order.',
        tenant_id: who.tenant_id,
      },
      {
        section_name: 'Damp',
        section_slug: 'damp',
        level: 1,
        order_in_doc: 1,
        markdown: 'Rising damp in the cellar.',
        tenant_id: who.tenant_id,
      },
    ]);
    const { rowCount: tenants } = await admin.db.pool.query('SELECT 1 FROM tenants WHERE id = $1', [
      who.tenant_id,
    ]);
    expect(tenants).toBe(1);

    const events = await eventsOf(who.tenant_id, reportId);
    expect(events.map((e) => e.type)).toEqual(['ReportParsed']);
    expect(events[0]).toMatchObject({ target_kind: 'report', target_id: reportId, generation: 1 });
    expect(events[0]?.data).toMatchObject({ sections: 2, figures: 0, tables: 0 });

    await expect(admin.call(AdminOps.migrateStatus, who)).resolves.toMatchObject({
      status: 'claimed',
      reports: 1,
    });
  });

  it('is idempotent: a second claim imports nothing and answers the same reports', async () => {
    const email = 'linus@example.com';
    await legacyReport(email);
    await legacyReport(email, { title: 'Second' });
    await admin.call(AdminOps.migratePreauth, { email });
    const who = caller(email);
    const first = await admin.call(AdminOps.migrateClaim, who);
    const [second, third] = await Promise.all([
      admin.call(AdminOps.migrateClaim, who),
      admin.call(AdminOps.migrateClaim, who),
    ]);
    expect(first.already_claimed).toBe(false);
    for (const again of [second, third]) {
      expect(again.already_claimed).toBe(true);
      expect([...again.report_ids].sort()).toEqual([...first.report_ids].sort());
    }
    const { rows } = await admin.db.pool.query(
      'SELECT count(*)::int AS n FROM reports WHERE tenant_id = $1',
      [who.tenant_id],
    );
    expect(rows[0].n).toBe(2);
    // The pipeline got each report once: the repeats were deduplicated by message id.
    for (const id of first.report_ids) {
      expect((await eventsOf(who.tenant_id, id)).map((e) => e.type)).toEqual(['ReportParsed']);
    }
  });

  it('imports concurrent first claims once', async () => {
    const email = 'concurrent@example.com';
    await legacyReport(email);
    await admin.call(AdminOps.migratePreauth, { email });
    const who = caller(email);
    const results = await Promise.all([1, 2, 3].map(() => admin.call(AdminOps.migrateClaim, who)));
    expect(results.filter((r) => !r.already_claimed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.report_ids[0]))).toHaveProperty('size', 1);
  });

  it('reverses a claim: the imported reports and their sections go, the claim is ready again, and can be claimed anew', async () => {
    const email = 'reverse@example.com';
    await legacyReport(email);
    await admin.call(AdminOps.migratePreauth, { email });
    const who = caller(email);
    const claimed = await admin.call(AdminOps.migrateClaim, who);
    const reportId = claimed.report_ids[0]!;
    const { rows: before } = await admin.db.pool.query(
      'SELECT object_key FROM reports WHERE id = $1',
      [reportId],
    );

    await expect(
      admin.call(AdminOps.migrateReverseClaim, { email: 'REVERSE@example.com' }),
    ).resolves.toEqual({
      email,
      status: 'ready',
      removed_reports: 1,
    });
    const { rows: left } = await admin.db.pool.query(
      `SELECT (SELECT count(*)::int FROM reports WHERE id = $1) AS reports,
              (SELECT count(*)::int FROM sections WHERE report_id = $1) AS sections`,
      [reportId],
    );
    expect(left[0]).toEqual({ reports: 0, sections: 0 });
    expect(await admin.objectStore.stat(before[0].object_key)).toBeNull();
    await expect(admin.call(AdminOps.migrateStatus, who)).resolves.toMatchObject({
      status: 'ready',
      reports: 1,
    });

    const again = await admin.call(AdminOps.migrateClaim, who);
    expect(again.already_claimed).toBe(false);
    expect(again.report_ids[0]).not.toBe(reportId);
  });

  it('answers 404 to reverse an email never pre-authorised and 409 when nothing is claimed', async () => {
    await expect(
      admin.call(AdminOps.migrateReverseClaim, { email: 'never@example.com' }),
    ).rejects.toMatchObject({
      status: 404,
    });
    await admin.call(AdminOps.migratePreauth, { email: 'ready-only@example.com' });
    await expect(
      admin.call(AdminOps.migrateReverseClaim, { email: 'ready-only@example.com' }),
    ).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
    });
  });

  it('refuses an invalid email with 422', async () => {
    await expect(
      admin.call(AdminOps.migratePreauth, { email: 'not-an-email' }),
    ).rejects.toMatchObject({
      status: 422,
    });
  });

  it('counts the claim flow in the stats', async () => {
    const stats = await admin.call(AdminOps.migrateStats, {});
    const { rows } = await admin.db.pool.query(`SELECT
        (SELECT count(*)::int FROM legacy_reports) AS legacy,
        (SELECT count(*)::int FROM legacy_claims WHERE status = 'claimed') AS claimed,
        (SELECT count(*)::int FROM legacy_claimed_reports) AS claimed_reports`);
    expect(stats).toMatchObject({
      legacy_reports: rows[0].legacy,
      claimed: rows[0].claimed,
      claimed_reports: rows[0].claimed_reports,
      reversed: 1,
      claimed_reports_ready: 0,
    });
    expect(stats.preauthorized).toBe(stats.ready + stats.claimed);
    expect(stats.legacy_owners).toBeGreaterThanOrEqual(6);
    // nobody-asked, ada (2) and the ready-only email's zero: reports whose owner has not claimed.
    expect(stats.unclaimed_reports).toBe(3);
  });
});
