import { describe, expect, it } from 'vitest';
import { checkFileLink, encodeKeyPath, fileSignature, localFileUrl } from '../src/files/signing.js';

const secret = Buffer.from('file-url-test-secret');
const key = 'tenants/t1/reports/r1/figures/f 1/thumb.png';
const now = 1_800_000_000;

describe('signed file links', () => {
  it('sign key and expiry with HMAC-SHA256 as lowercase hex', () => {
    const sig = fileSignature(secret, key, now + 60);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(fileSignature(secret, key, now + 60)).toBe(sig);
    expect(fileSignature(secret, key, now + 61)).not.toBe(sig);
    expect(fileSignature(Buffer.from('other'), key, now + 60)).not.toBe(sig);
  });

  it('put the key in the path, segment by segment, and expiry and signature in the query', () => {
    const url = new URL(localFileUrl('https://api.example.com/base', secret, key, now + 60));
    expect(url.pathname).toBe('/base/files/tenants/t1/reports/r1/figures/f%201/thumb.png');
    expect(url.searchParams.get('expires')).toBe(String(now + 60));
    expect(url.searchParams.get('sig')).toBe(fileSignature(secret, key, now + 60));
    expect(encodeKeyPath('a/b?c#d/e')).toBe('a/b%3Fc%23d/e');
  });

  it('accept a link before its expiry and at the expiry second', () => {
    const sig = fileSignature(secret, key, now + 60);
    expect(checkFileLink(secret, key, String(now + 60), sig, now)).toBe('ok');
    expect(checkFileLink(secret, key, String(now + 60), sig, now + 60)).toBe('ok');
  });

  it('call a correctly signed link past its expiry expired', () => {
    const sig = fileSignature(secret, key, now - 1);
    expect(checkFileLink(secret, key, String(now - 1), sig, now)).toBe('expired');
  });

  it('refuse a link whose key, expiry or signature was changed', () => {
    const sig = fileSignature(secret, key, now + 60);
    expect(checkFileLink(secret, `${key}x`, String(now + 60), sig, now)).toBe('invalid');
    expect(checkFileLink(secret, key, String(now + 3600), sig, now)).toBe('invalid');
    const flipped = `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`;
    expect(checkFileLink(secret, key, String(now + 60), flipped, now)).toBe('invalid');
    expect(checkFileLink(Buffer.from('other'), key, String(now + 60), sig, now)).toBe('invalid');
  });

  it('refuse a signature of the wrong length or not hex, and an expiry that is not a number', () => {
    const sig = fileSignature(secret, key, now + 60);
    expect(checkFileLink(secret, key, String(now + 60), sig.slice(2), now)).toBe('invalid');
    expect(checkFileLink(secret, key, String(now + 60), `${sig}00`, now)).toBe('invalid');
    expect(checkFileLink(secret, key, String(now + 60), 'z'.repeat(64), now)).toBe('invalid');
    expect(checkFileLink(secret, key, String(now + 60), undefined, now)).toBe('invalid');
    expect(checkFileLink(secret, key, 'soon', sig, now)).toBe('invalid');
    expect(checkFileLink(secret, key, undefined, sig, now)).toBe('invalid');
  });
});
