import { describe, expect, it } from 'vitest';
import { partnerUploadCanonicalString } from '@reports/contracts';
import {
  parsePartnerSignature,
  partnerSignature,
  partnerSignatureMatches,
} from '../src/partner/signature.js';

const secret = 'partner-shared-secret';
const canonical = partnerUploadCanonicalString({
  report_id: '6f1c2d8e-0b7a-4c5e-9d3f-2a1b0c9d8e7f',
  partner_id: 'P-1001',
  attachment_type: 'floor_plan',
  file_sha256: 'ab'.repeat(32),
});

describe('the partner signature', () => {
  it('is the lowercase hex HMAC-SHA-256 of the canonical string', () => {
    // Computed independently: printf '%s' "$canonical" | openssl dgst -sha256 -hmac "$secret"
    expect(partnerSignature('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
    expect(partnerSignature(secret, canonical)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches the right signature in lowercase hex, and never in upper-case hex', () => {
    const sig = partnerSignature(secret, canonical);
    expect(partnerSignatureMatches(secret, canonical, sig)).toBe(true);
    expect(partnerSignatureMatches(secret, canonical, sig.toUpperCase())).toBe(false);
  });

  it('does not match another secret or another canonical string', () => {
    const sig = partnerSignature(secret, canonical);
    expect(partnerSignatureMatches('other-secret', canonical, sig)).toBe(false);
    expect(partnerSignatureMatches(secret, `${canonical}x`, sig)).toBe(false);
  });

  it('never matches a signature of the wrong length, not hex, repeated or missing', () => {
    const sig = partnerSignature(secret, canonical);
    for (const bad of [
      sig.slice(1),
      `${sig}0`,
      `${sig.slice(0, 63)}g`,
      '',
      undefined,
      [sig, sig],
    ]) {
      expect(parsePartnerSignature(bad)).toBeNull();
      expect(partnerSignatureMatches(secret, canonical, bad)).toBe(false);
    }
  });
});
