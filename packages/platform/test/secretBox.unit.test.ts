import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, loadConfig, parseSecretsKey } from '../src/index.js';

const key = randomBytes(32);

describe('the secret box (AES-256-GCM)', () => {
  it('opens what it sealed, and seals the same text differently each time', () => {
    const box = createSecretBox(key);
    const a = box.seal('sk-live-123', 'ctx');
    const b = box.seal('sk-live-123', 'ctx');
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk-live-123');
    expect(a.startsWith('v1.')).toBe(true);
    expect(box.open(a, 'ctx')).toBe('sk-live-123');
  });

  it('refuses another context, another key, and any changed byte', () => {
    const box = createSecretBox(key);
    const sealed = box.seal('secret', 'tenant-a:openai');
    expect(() => box.open(sealed, 'tenant-b:openai')).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'tenant-a:openai')).toThrow();
    const [v, iv, tag, ct] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() =>
      box.open([v, iv, tag, flipped.toString('base64url')].join('.'), 'tenant-a:openai'),
    ).toThrow();
    expect(() => box.open('garbage', 'tenant-a:openai')).toThrow('not a sealed secret');
  });

  it('reads a 32-byte key as hex or base64 and refuses anything else', () => {
    expect(parseSecretsKey(key.toString('hex'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('base64url'))?.equals(key)).toBe(true);
    expect(parseSecretsKey('too-short')).toBeNull();
    expect(parseSecretsKey(randomBytes(16).toString('hex'))).toBeNull();
    expect(() => createSecretBox(randomBytes(16))).toThrow();
  });

  it('stops a service with a message naming SECRETS_KEY when it is malformed', () => {
    expect(() => loadConfig({ SECRETS_KEY: 'nope' })).toThrow(/SECRETS_KEY/);
    expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).SECRETS_KEY).toBe(key.toString('hex'));
    expect(loadConfig({}).SECRETS_KEY).toBeUndefined();
  });
});
