import { z } from 'zod';

/** An email as the claim flow keys it: trimmed and lowercased. */
export const ClaimEmail = z.string().trim().toLowerCase().pipe(z.email().max(320));

/**
 * Claim states of one email (spec: "no claim, claim ready, claimed"): `none` when the
 * email is not pre-authorised, `ready` when it is and nothing was imported yet,
 * `claimed` once its v1 reports were imported.
 */
export const ClaimState = z.enum(['none', 'ready', 'claimed']);
export type ClaimState = z.infer<typeof ClaimState>;

/**
 * `GET /migrate/status`. `reports` is the number of v1 reports waiting (`ready`) or
 * imported (`claimed`); 0 for `none`.
 */
export const MigrateStatus = z.object({
  status: ClaimState,
  reports: z.number().int().nonnegative(),
  claimed_at: z.string().nullable(),
});
export type MigrateStatus = z.infer<typeof MigrateStatus>;

/**
 * `POST /migrate/claim`. The same answer on a repeated claim (`already_claimed`
 * true): a claim imports once.
 */
export const ClaimResult = z.object({
  status: z.literal('claimed'),
  reports: z.number().int().nonnegative(),
  report_ids: z.array(z.uuid()),
  already_claimed: z.boolean(),
});
export type ClaimResult = z.infer<typeof ClaimResult>;

/** The caller of a claim-flow operation, as the gateway derived it from the JWT. */
export const MigrateCaller = z.object({
  user_id: z.uuid(),
  email: z.string().nullable(),
  /** The tenant claimed reports go to: the caller's personal tenant. */
  tenant_id: z.uuid(),
});
export type MigrateCaller = z.infer<typeof MigrateCaller>;

/** `POST /admin/migrate/preauth` body. */
export const PreauthRequest = z.object({ email: ClaimEmail });
export type PreauthRequest = z.infer<typeof PreauthRequest>;

/** `POST /admin/migrate/preauth`: `created` is false when the email was already pre-authorised. */
export const PreauthResult = z.object({
  email: z.string(),
  status: z.enum(['ready', 'claimed']),
  reports: z.number().int().nonnegative(),
  created: z.boolean(),
});
export type PreauthResult = z.infer<typeof PreauthResult>;

/** `POST /admin/migrate/reverse-claim` body. */
export const ReverseClaimRequest = z.object({ email: ClaimEmail });
export type ReverseClaimRequest = z.infer<typeof ReverseClaimRequest>;

/** `POST /admin/migrate/reverse-claim`: the imported reports are gone and the claim is ready again. */
export const ReverseClaimResult = z.object({
  email: z.string(),
  status: z.literal('ready'),
  removed_reports: z.number().int().nonnegative(),
});
export type ReverseClaimResult = z.infer<typeof ReverseClaimResult>;

/** `GET /admin/migrate/stats`: claim-flow analytics. */
export const MigrateStats = z.object({
  /** v1 reports in the legacy table. */
  legacy_reports: z.number().int(),
  /** Distinct owner emails of those. */
  legacy_owners: z.number().int(),
  /** Emails pre-authorised (any state). */
  preauthorized: z.number().int(),
  ready: z.number().int(),
  claimed: z.number().int(),
  /** Claims undone at least once. */
  reversed: z.number().int(),
  /** Reports currently imported by claims. */
  claimed_reports: z.number().int(),
  /** Of those, the ones that reached `ready`. */
  claimed_reports_ready: z.number().int(),
  /** v1 reports whose owner has not claimed them. */
  unclaimed_reports: z.number().int(),
});
export type MigrateStats = z.infer<typeof MigrateStats>;
