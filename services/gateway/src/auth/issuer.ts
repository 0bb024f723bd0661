import { systemClock, type Clock } from '@reports/platform';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { AppError, type MeResponse, type TokenResponse } from '@reports/contracts';
import { withTransaction, type Pool, type PoolClient } from '@reports/platform';
import type { IssuerKeys, PublicJwk } from './keys.js';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const MAGIC_LINK_TTL_SECONDS = 3600;
/** Consumed or expired sign-in links are deleted once this much older than their expiry. */
const MAGIC_LINK_RETENTION_SECONDS = 24 * 3600;
// Any constant: with hashtext(email), serialises first sign-ins of one email.
const SIGN_IN_LOCK = 7_342_102;
// With hashtext(issuer, subject): serialises first exchanges of one partner identity.
const PARTNER_LOCK = 7_342_103;

/** A fresh secret: 32 random bytes, base64url. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a secret: its SHA-256 digest, hex. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The part before '@', or 'user' when there is none. */
export function emailLocalPart(email: string | null | undefined): string {
  const local = email?.split('@')[0]?.trim();
  return local ? local : 'user';
}

export interface ProfileRow {
  id: string;
  email: string | null;
  display_name: string;
  personal_tenant_id: string;
  active_tenant_id: string | null;
}

export function profileToMe(profile: ProfileRow): MeResponse {
  return {
    id: profile.id,
    email: profile.email,
    personal_tenant_id: profile.personal_tenant_id,
    active_tenant_id: profile.active_tenant_id ?? profile.personal_tenant_id,
    display_name: profile.display_name,
  };
}

const PROFILE_COLUMNS = 'id, email, display_name, personal_tenant_id, active_tenant_id';

export async function findProfileById(
  db: Pool | PoolClient,
  id: string,
): Promise<ProfileRow | null> {
  const { rows } = await db.query<ProfileRow>(
    `SELECT ${PROFILE_COLUMNS} FROM user_profiles WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export interface IssuerOptions {
  pool: Pool;
  keys: IssuerKeys;
  /** `aud` of issued tokens. */
  audience: string;
  /** `iss` of issued tokens. */
  issuer: string;
  /** Base URL of the gateway, without a trailing slash; sign-in links point here. */
  publicUrl: string;
  /** Base URL of the web app whose confirm route sign-in links open (AUTH_SITE_URL); else publicUrl. */
  siteUrl?: string;
  /** Stamps `iat` and `exp`. Default the system clock. */
  clock?: Clock;
}

/** Who a partner's verified token names: its issuer, subject and (unverified by us) email. */
export interface PartnerIdentity {
  issuer: string;
  subject: string;
  email: string | null;
}

export interface Issuer {
  readonly keys: IssuerKeys;
  /** Stores a one-time sign-in link for `email` and returns it (delivered by mail or log). */
  createMagicLink(email: string): Promise<string>;
  /** Consumes a sign-in link: finds or creates the user and issues a token pair. */
  confirm(tokenHash: string): Promise<TokenResponse>;
  /** Finds or creates the user of a partner identity (with a personal tenant) and issues a token pair. */
  partnerSession(identity: PartnerIdentity): Promise<TokenResponse>;
  /** Rotates a refresh token: revokes it and issues a new pair. */
  refresh(refreshToken: string): Promise<TokenResponse>;
  /** The public key set. */
  jwks(): { keys: PublicJwk[] };
}

/**
 * The built-in identity provider for local use: magic-link sign-in, ES256
 * access tokens with the claims of the hosted provider's hook, rotating refresh tokens.
 */
export function createIssuer(options: IssuerOptions): Issuer {
  const { pool, keys } = options;

  async function accessToken(profile: ProfileRow): Promise<string> {
    const now = (options.clock ?? systemClock).nowSeconds();
    return new SignJWT({
      ...(profile.email !== null ? { email: profile.email } : {}),
      role: 'authenticated',
      personal_tenant_id: profile.personal_tenant_id,
      active_tenant_id: profile.active_tenant_id ?? profile.personal_tenant_id,
    })
      .setProtectedHeader({ alg: keys.signing.alg, kid: keys.signing.kid, typ: 'JWT' })
      .setSubject(profile.id)
      .setAudience(options.audience)
      .setIssuer(options.issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
      .sign(keys.signing.privateKey);
  }

  async function storeRefreshToken(client: PoolClient, userId: string): Promise<string> {
    const token = randomSecret();
    await client.query(
      `INSERT INTO auth_refresh_tokens (digest, user_id, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [secretDigest(token), userId, REFRESH_TOKEN_TTL_SECONDS],
    );
    return token;
  }

  async function tokenResponse(profile: ProfileRow, refreshToken: string): Promise<TokenResponse> {
    return {
      access_token: await accessToken(profile),
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: refreshToken,
      user: profileToMe(profile),
    };
  }

  async function findOrCreateUser(client: PoolClient, email: string): Promise<ProfileRow> {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SIGN_IN_LOCK, email]);
    const { rows } = await client.query<ProfileRow>(
      `SELECT ${PROFILE_COLUMNS} FROM user_profiles WHERE lower(email) = $1 ORDER BY created_at LIMIT 1`,
      [email],
    );
    if (rows[0]) return rows[0];
    const tenantId = randomUUID();
    const userId = randomUUID();
    await client.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, $2, 'personal')`, [
      tenantId,
      email,
    ]);
    const created = await client.query<ProfileRow>(
      `INSERT INTO user_profiles (id, email, display_name, personal_tenant_id)
       VALUES ($1, $2, $3, $4) RETURNING ${PROFILE_COLUMNS}`,
      [userId, email, emailLocalPart(email), tenantId],
    );
    await client.query(
      `INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, 'owner')`,
      [tenantId, userId],
    );
    const profile = created.rows[0];
    if (!profile) throw new Error('user_profiles insert returned no row');
    return profile;
  }

  async function findOrCreatePartnerUser(
    client: PoolClient,
    identity: PartnerIdentity,
  ): Promise<ProfileRow> {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
      PARTNER_LOCK,
      `${identity.issuer}\n${identity.subject}`,
    ]);
    const linked = await client.query<{ user_id: string }>(
      `UPDATE partner_identities SET last_seen_at = now(), email = $3
       WHERE issuer = $1 AND subject = $2 RETURNING user_id`,
      [identity.issuer, identity.subject, identity.email],
    );
    const existing = linked.rows[0] ? await findProfileById(client, linked.rows[0].user_id) : null;
    if (existing) return existing;
    // The partner's email is not a mailbox proven to us: it names the user, never an account.
    const tenantId = randomUUID();
    const userId = randomUUID();
    const name = identity.email ? emailLocalPart(identity.email) : 'partner user';
    await client.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, $2, 'personal')`, [
      tenantId,
      `${identity.issuer} ${identity.subject}`.slice(0, 500),
    ]);
    const created = await client.query<ProfileRow>(
      `INSERT INTO user_profiles (id, email, display_name, personal_tenant_id)
       VALUES ($1, NULL, $2, $3) RETURNING ${PROFILE_COLUMNS}`,
      [userId, name, tenantId],
    );
    await client.query(
      `INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, 'owner')`,
      [tenantId, userId],
    );
    await client.query(
      `INSERT INTO partner_identities (issuer, subject, user_id, email) VALUES ($1, $2, $3, $4)`,
      [identity.issuer, identity.subject, userId, identity.email],
    );
    const profile = created.rows[0];
    if (!profile) throw new Error('user_profiles insert returned no row');
    return profile;
  }

  return {
    keys,

    async createMagicLink(rawEmail) {
      const email = rawEmail.trim().toLowerCase();
      const token = randomSecret();
      await pool.query(
        `INSERT INTO auth_magic_links (digest, email, expires_at)
         VALUES ($1, $2, now() + make_interval(secs => $3))`,
        [secretDigest(token), email, MAGIC_LINK_TTL_SECONDS],
      );
      // Housekeeping: links long past their expiry are of no use to anyone.
      await pool.query(
        `DELETE FROM auth_magic_links WHERE expires_at < now() - make_interval(secs => $1)`,
        [MAGIC_LINK_RETENTION_SECONDS],
      );
      const query = new URLSearchParams({ token_hash: token, type: 'magiclink' });
      const base = (options.siteUrl ?? options.publicUrl).replace(/\/+$/, '');
      return `${base}/auth/confirm?${query.toString()}`;
    },

    async confirm(tokenHash) {
      const { profile, refreshToken } = await withTransaction(pool, async (client) => {
        const consumed = await client.query<{ email: string }>(
          `UPDATE auth_magic_links SET consumed_at = now()
           WHERE digest = $1 AND consumed_at IS NULL AND expires_at > now()
           RETURNING email`,
          [secretDigest(tokenHash)],
        );
        const link = consumed.rows[0];
        if (!link) throw new AppError('unauthorized', 'invalid or expired link');
        const profile = await findOrCreateUser(client, link.email.toLowerCase());
        return { profile, refreshToken: await storeRefreshToken(client, profile.id) };
      });
      return tokenResponse(profile, refreshToken);
    },

    async partnerSession(identity) {
      const { profile, refreshToken } = await withTransaction(pool, async (client) => {
        const profile = await findOrCreatePartnerUser(client, identity);
        return { profile, refreshToken: await storeRefreshToken(client, profile.id) };
      });
      return tokenResponse(profile, refreshToken);
    },

    async refresh(oldToken) {
      const { profile, refreshToken } = await withTransaction(pool, async (client) => {
        const revoked = await client.query<{ user_id: string }>(
          `UPDATE auth_refresh_tokens SET revoked_at = now()
           WHERE digest = $1 AND revoked_at IS NULL AND expires_at > now()
           RETURNING user_id`,
          [secretDigest(oldToken)],
        );
        const row = revoked.rows[0];
        if (!row) throw new AppError('unauthorized', 'invalid refresh token');
        const profile = await findProfileById(client, row.user_id);
        if (!profile) throw new AppError('unauthorized', 'invalid refresh token');
        return { profile, refreshToken: await storeRefreshToken(client, profile.id) };
      });
      return tokenResponse(profile, refreshToken);
    },

    jwks() {
      return { keys: keys.publicJwks.map((k) => ({ ...k })) };
    },
  };
}
