import { describe, expect, it } from 'vitest';
import {
  PartnerAttachmentFields,
  partnerStatusCanonicalString,
  partnerUploadCanonicalString,
} from '../src/index.js';

const reportId = '6f1c2d8e-0b7a-4c5e-9d3f-2a1b0c9d8e7f';

describe('the partner canonical strings', () => {
  it('joins report, partner id, attachment type and file hash with "|" for an upload (spec)', () => {
    expect(
      partnerUploadCanonicalString({
        report_id: reportId,
        partner_id: 'P-1001',
        attachment_type: 'floor_plan',
        file_sha256: 'ab'.repeat(32),
      }),
    ).toBe(`${reportId}|P-1001|floor_plan|${'ab'.repeat(32)}`);
  });

  it('joins report and attachment id for the status GET', () => {
    expect(
      partnerStatusCanonicalString({
        report_id: reportId,
        attachment_id: '0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b',
      }),
    ).toBe(`${reportId}|0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b`);
  });
});

describe('PartnerAttachmentFields', () => {
  it('accepts a partner id, a type and an optional note, exactly as sent (they are signed)', () => {
    expect(
      PartnerAttachmentFields.parse({ partner_id: ' P-1 ', attachment_type: 'epc', note: null }),
    ).toEqual({ partner_id: ' P-1 ', attachment_type: 'epc', note: null });
  });

  it('refuses a "|" inside a signed field, so one signature cannot cover another split', () => {
    expect(
      PartnerAttachmentFields.safeParse({ partner_id: 'a|b', attachment_type: 'c', note: null })
        .success,
    ).toBe(false);
    expect(
      PartnerAttachmentFields.safeParse({ partner_id: 'a', attachment_type: 'b|c', note: null })
        .success,
    ).toBe(false);
  });

  it('refuses an empty partner id or type', () => {
    expect(
      PartnerAttachmentFields.safeParse({ partner_id: '', attachment_type: 'c', note: null })
        .success,
    ).toBe(false);
    expect(
      PartnerAttachmentFields.safeParse({ partner_id: 'a', attachment_type: '  ', note: null })
        .success,
    ).toBe(false);
  });
});
