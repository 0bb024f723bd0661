import { describe, expect, it } from 'vitest';
import { needsRefresh, secureCookies, tokenExpiry } from '../src/server/session.js';
import { scriptJson } from '../src/server/app.js';
import { loadWebConfig } from '../src/server/config.js';

function jwt(claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'ES256' })}.${part(claims)}.sig`;
}

describe('web session helpers', () => {
  it('reads the expiry of a token and asks for a refresh shortly before it', () => {
    const now = 1_000_000;
    expect(tokenExpiry(jwt({ exp: now + 3600 }))).toBe(now + 3600);
    expect(needsRefresh(jwt({ exp: now + 3600 }), now)).toBe(false);
    expect(needsRefresh(jwt({ exp: now + 30 }), now)).toBe(true);
    expect(needsRefresh(undefined, now)).toBe(true);
    expect(needsRefresh('not-a-token', now)).toBe(true);
  });

  it('sets Secure cookies everywhere except on a loopback host, unless forced', () => {
    expect(secureCookies('localhost', undefined)).toBe(false);
    expect(secureCookies('127.0.0.1:3000', undefined)).toBe(false);
    expect(secureCookies('app.example.com', undefined)).toBe(true);
    expect(secureCookies('localhost', '1')).toBe(true);
  });

  it('writes JSON that cannot close the script element it sits in', () => {
    const text = scriptJson({ a: '</script><script>alert(1)</script>' });
    expect(text).not.toContain('</script>');
    expect(JSON.parse(text)).toEqual({ a: '</script><script>alert(1)</script>' });
  });

  it('refuses a wildcard or a path in the embedding allowlist, naming the variable', () => {
    expect(
      loadWebConfig({ EMBED_ALLOWED_ORIGINS: 'https://a.test, http://127.0.0.1:4000/' })
        .EMBED_ALLOWED_ORIGINS,
    ).toEqual(['https://a.test', 'http://127.0.0.1:4000']);
    expect(() => loadWebConfig({ EMBED_ALLOWED_ORIGINS: '*' })).toThrow(/EMBED_ALLOWED_ORIGINS/);
    expect(() => loadWebConfig({ EMBED_ALLOWED_ORIGINS: 'https://a.test/x' })).toThrow(
      /EMBED_ALLOWED_ORIGINS/,
    );
  });
});
