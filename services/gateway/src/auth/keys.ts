import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import { withTransaction, type Pool } from '@reports/platform';

/** Algorithm of the built-in issuer's keys. */
export const SIGNING_ALG = 'ES256';

// Any constant: serialises first-key creation across gateways starting at once.
const KEY_CREATION_LOCK = 7_342_101;

export interface SigningKey {
  kid: string;
  alg: typeof SIGNING_ALG;
  privateKey: CryptoKey;
}

export interface IssuerKeys {
  /** The key new tokens are signed with. */
  signing: SigningKey;
  /** Public halves of every stored key, as served on /auth/jwks.json. */
  publicJwks: PublicJwk[];
  /** Key-set function for verifying the issuer's tokens in-process (no HTTP round trip). */
  keySet: JWTVerifyGetKey;
}

/** The public half of a signing key, as published. */
export interface PublicJwk {
  kty: string;
  kid: string;
  alg: string;
  use: 'sig';
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

/**
 * Copies only the public members (an allowlist, so no private member such as
 * `d`, `p` or `q` can slip through); `ext`/`key_ops` of the local key object are dropped too.
 */
export function publicJwk(jwk: JWK, kid: string, alg: string): PublicJwk {
  const out: PublicJwk = { kty: jwk.kty ?? 'EC', kid, alg, use: 'sig' };
  if (jwk.crv !== undefined) out.crv = jwk.crv;
  if (jwk.x !== undefined) out.x = jwk.x;
  if (jwk.y !== undefined) out.y = jwk.y;
  if (jwk.n !== undefined) out.n = jwk.n;
  if (jwk.e !== undefined) out.e = jwk.e;
  return out;
}

async function generateKeyRow(): Promise<{ kid: string; privateJwk: JWK; publicJwk: PublicJwk }> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG };
  return { kid, privateJwk, publicJwk: publicJwk(pub, kid, SIGNING_ALG) };
}

interface KeyRow {
  kid: string;
  alg: string;
  private_jwk: JWK;
  public_jwk: JWK;
}

/**
 * Loads the issuer's keys, creating the first ES256 pair when the table is
 * empty. Two gateways starting at once end up with the same key: creation is
 * "insert if none" under an advisory lock, and the signing key is the oldest row.
 */
export async function loadIssuerKeys(pool: Pool): Promise<IssuerKeys> {
  const { rowCount } = await pool.query('SELECT 1 FROM auth_signing_keys LIMIT 1');
  if (!rowCount) {
    const row = await generateKeyRow();
    await withTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [KEY_CREATION_LOCK]);
      await client.query(
        `INSERT INTO auth_signing_keys (kid, alg, private_jwk, public_jwk)
         SELECT $1, $2, $3, $4
         WHERE NOT EXISTS (SELECT 1 FROM auth_signing_keys)`,
        [row.kid, SIGNING_ALG, JSON.stringify(row.privateJwk), JSON.stringify(row.publicJwk)],
      );
    });
  }
  const { rows } = await pool.query<KeyRow>(
    'SELECT kid, alg, private_jwk, public_jwk FROM auth_signing_keys ORDER BY created_at, kid',
  );
  const oldest = rows.find((r) => r.alg === SIGNING_ALG);
  if (!oldest) throw new Error(`auth_signing_keys holds no ${SIGNING_ALG} key`);
  const privateKey = await importJWK(oldest.private_jwk, SIGNING_ALG, { extractable: false });
  if (privateKey instanceof Uint8Array)
    throw new Error('auth_signing_keys: the private key is not asymmetric');
  const publicJwks = rows.map((r) => publicJwk(r.public_jwk, r.kid, r.alg));
  return {
    signing: { kid: oldest.kid, alg: SIGNING_ALG, privateKey },
    publicJwks,
    keySet: createLocalJWKSet({ keys: publicJwks }),
  };
}
