import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { isAppError } from '@reports/contracts';
import { userFromClaims } from '../src/auth/claims.js';
import { emailLocalPart, secretDigest, randomSecret } from '../src/auth/issuer.js';
import { publicJwk } from '../src/auth/keys.js';
import { meFromClaims } from '../src/auth/me.js';
import { bearerToken, createTokenVerifier } from '../src/auth/verifier.js';

const now = () => Math.floor(Date.now() / 1000);

function baseClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sub: randomUUID(),
    iat: now(),
    exp: now() + 3600,
    personal_tenant_id: randomUUID(),
    email: 'ada@example.com',
    ...overrides,
  };
}

/** The detail of the 401 `fn` throws; fails when it throws anything else or nothing. */
function unauthorizedDetail(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isAppError(error) && error.code === 'unauthorized') return error.detail;
    throw error;
  }
  throw new Error('expected a 401');
}

async function rejectedDetail(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error) && error.code === 'unauthorized') return error.detail;
    throw error;
  }
  throw new Error('expected a 401');
}

describe('bearerToken', () => {
  it('reads the token of a Bearer header whatever the case of the scheme', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('BEARER   abc.def.ghi')).toBe('abc.def.ghi');
  });

  it('answers token missing for an absent header, another scheme or an empty token', () => {
    for (const header of [
      undefined,
      '',
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer ',
      'Token abc',
      'Bearer a b',
    ]) {
      expect(unauthorizedDetail(() => bearerToken(header))).toBe('token missing');
    }
  });
});

describe('userFromClaims', () => {
  it('uses active_tenant_id as the effective tenant when present', () => {
    const claims = baseClaims({ active_tenant_id: randomUUID() });
    const user = userFromClaims(claims, 'tok');
    expect(user.tenant_id).toBe(claims.active_tenant_id);
    expect(user.active_tenant_id).toBe(claims.active_tenant_id);
    expect(user.personal_tenant_id).toBe(claims.personal_tenant_id);
  });

  it('falls back to personal_tenant_id when active_tenant_id is absent or null', () => {
    const absent = baseClaims();
    expect(userFromClaims(absent, 'tok').tenant_id).toBe(absent.personal_tenant_id);
    const nulled = baseClaims({ active_tenant_id: null });
    const user = userFromClaims(nulled, 'tok');
    expect(user.tenant_id).toBe(nulled.personal_tenant_id);
    expect(user.active_tenant_id).toBeNull();
  });

  it('defaults role to authenticated and keeps every claim and the raw token', () => {
    const claims = baseClaims({ custom: 'x' });
    const user = userFromClaims(claims, 'raw.token.here');
    expect(user).toMatchObject({
      role: 'authenticated',
      email: 'ada@example.com',
      access_token: 'raw.token.here',
    });
    expect(user.claims).toEqual(claims);
    expect(userFromClaims(baseClaims({ role: 'service' }), 't').role).toBe('service');
    expect(userFromClaims(baseClaims({ email: undefined }), 't').email).toBeNull();
  });

  it('refuses a non-uuid sub, a missing or non-uuid personal_tenant_id, and a non-uuid active_tenant_id', () => {
    for (const claims of [
      baseClaims({ sub: 'user-1' }),
      baseClaims({ personal_tenant_id: undefined }),
      baseClaims({ personal_tenant_id: 'nope' }),
      baseClaims({ active_tenant_id: 'nope' }),
      baseClaims({ email: 42 }),
    ]) {
      expect(unauthorizedDetail(() => userFromClaims(claims, 't'))).toBe('invalid token claims');
    }
  });

  it('refuses an iat more than 60 seconds in the future but tolerates small clock skew', () => {
    expect(unauthorizedDetail(() => userFromClaims(baseClaims({ iat: now() + 120 }), 't'))).toBe(
      'token issued in the future',
    );
    expect(userFromClaims(baseClaims({ iat: now() + 30 }), 't').id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a lifetime longer than the cap, measured from iat and from now', () => {
    const year = 365 * 24 * 3600;
    expect(
      unauthorizedDetail(() => userFromClaims(baseClaims({ exp: now() + 10 * year }), 't')),
    ).toBe('token lifetime too long');
    // An old iat does not make a far-off exp acceptable.
    expect(
      unauthorizedDetail(() =>
        userFromClaims(baseClaims({ iat: now() - 10 * year, exp: now() + 10 * year }), 't'),
      ),
    ).toBe('token lifetime too long');
    // The cap is configurable: two hours refuses a three-hour token.
    expect(
      unauthorizedDetail(() =>
        userFromClaims(baseClaims({ exp: now() + 3 * 3600 }), 't', now(), 2 * 3600),
      ),
    ).toBe('token lifetime too long');
    expect(userFromClaims(baseClaims({ exp: now() + 3600 }), 't', now(), 2 * 3600).id).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});

describe('createTokenVerifier with a local key set', () => {
  async function setup() {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const verifier = createTokenVerifier({
      jwks: createLocalJWKSet({ keys: [jwk] }),
      issuer: 'https://issuer.test',
      audience: 'authenticated',
    });
    const sign = (payload: JWTPayload, exp: number | string = '1h') =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuedAt()
        .setExpirationTime(exp)
        .setAudience('authenticated')
        .setIssuer('https://issuer.test')
        .sign(privateKey);
    return { verifier, sign };
  }

  it('verifies a good token into the caller', async () => {
    const { verifier, sign } = await setup();
    const sub = randomUUID();
    const personal = randomUUID();
    const user = await verifier.verify(await sign({ sub, personal_tenant_id: personal }));
    expect(user).toMatchObject({
      id: sub,
      tenant_id: personal,
      active_tenant_id: null,
      role: 'authenticated',
    });
  });

  it('answers token expired for an expired token and token missing for an empty one', async () => {
    const { verifier, sign } = await setup();
    const expired = await sign({ sub: randomUUID(), personal_tenant_id: randomUUID() }, now() - 10);
    expect(await rejectedDetail(verifier.verify(expired))).toBe('token expired');
    expect(await rejectedDetail(verifier.verify(''))).toBe('token missing');
    expect(await rejectedDetail(verifier.verify('not-a-jwt'))).toBe('invalid token');
  });

  it('refuses a validly signed token minted to live ten years, and accepts a one-hour one', async () => {
    const { verifier, sign } = await setup();
    const claims = { sub: randomUUID(), personal_tenant_id: randomUUID() };
    expect(await rejectedDetail(verifier.verify(await sign(claims, '10y')))).toBe(
      'token lifetime too long',
    );
    expect((await verifier.verify(await sign(claims, '1h'))).id).toBe(claims.sub);
  });
});

describe('issuer helpers', () => {
  it('derives display names from the local part of an email', () => {
    expect(emailLocalPart('ada.lovelace@example.com')).toBe('ada.lovelace');
    expect(emailLocalPart(null)).toBe('user');
    expect(emailLocalPart('@example.com')).toBe('user');
  });

  it('makes 32-byte base64url secrets and stores only a SHA-256 hex digest of them', () => {
    const secret = randomSecret();
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(secretDigest(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(secretDigest(secret)).not.toContain(secret);
    expect(randomSecret()).not.toBe(secret);
  });

  it('publishes only the public members of a key', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const full = await exportJWK(privateKey);
    expect(full.d).toBeDefined();
    const pub = publicJwk(full, 'kid-1', 'ES256');
    expect(Object.keys(pub).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
  });

  it('builds the profile of an external user from its claims', () => {
    const claims = baseClaims({ active_tenant_id: randomUUID() });
    const me = meFromClaims(userFromClaims(claims, 't'));
    expect(me).toEqual({
      id: claims.sub,
      email: 'ada@example.com',
      personal_tenant_id: claims.personal_tenant_id,
      active_tenant_id: claims.active_tenant_id,
      display_name: 'ada',
    });
    expect(meFromClaims(userFromClaims(baseClaims({ email: undefined }), 't')).display_name).toBe(
      'user',
    );
  });
});
