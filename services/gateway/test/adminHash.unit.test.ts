import { describe, expect, it } from 'vitest';
import { AppError } from '@reports/contracts';
import { adminHashMatches, checkAdminHash, presentedAdminHash } from '../src/admin/adminHash.js';

const codeOf = (fn: () => void): string | null => {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof AppError ? `${e.status} ${e.detail}` : 'other';
  }
};

describe('admin hash', () => {
  it('reads the header first and the hash query parameter only without it', () => {
    expect(presentedAdminHash({ headers: { 'x-admin-hash': 'h' }, query: { hash: 'q' } })).toBe(
      'h',
    );
    expect(presentedAdminHash({ headers: {}, query: { hash: 'q' } })).toBe('q');
    expect(presentedAdminHash({ headers: {}, query: {} })).toBeUndefined();
  });

  it('answers 403 admin disabled when no hash is configured, whatever is presented', () => {
    expect(codeOf(() => checkAdminHash('anything', undefined))).toBe('403 admin disabled');
    expect(codeOf(() => checkAdminHash(undefined, ''))).toBe('403 admin disabled');
  });

  it('answers 403 forbidden for a missing, wrong or wrong-length hash', () => {
    expect(codeOf(() => checkAdminHash(undefined, 's3cret'))).toBe('403 forbidden');
    expect(codeOf(() => checkAdminHash('s3creT', 's3cret'))).toBe('403 forbidden');
    expect(codeOf(() => checkAdminHash('s3cret-and-more', 's3cret'))).toBe('403 forbidden');
    expect(codeOf(() => checkAdminHash('', 's3cret'))).toBe('403 forbidden');
  });

  it('accepts the configured hash', () => {
    expect(codeOf(() => checkAdminHash('s3cret', 's3cret'))).toBeNull();
    expect(adminHashMatches('s3cret', 's3cret')).toBe(true);
  });
});
