import { describe, expect, it } from 'vitest';
import {
  InvalidObjectKeyError,
  MAX_OBJECT_KEY_BYTES,
  compareObjectKeys,
  createObjectStore,
  validateObjectKey,
  validateObjectPrefix,
} from '../src/objectstore/index.js';

describe('validateObjectKey', () => {
  it.each([
    'tenants/6f1c0d5e-0000-4000-8000-000000000001/reports/r1/original/report.pdf',
    'a',
    'a/b/c',
    'file name with spaces (1).pdf',
    'dots.in.names/..hidden/.x/x..',
    'unicode/Gebäude-Übersicht-日本語.pdf',
    'emoji/🏠.pdf',
    'x'.repeat(MAX_OBJECT_KEY_BYTES),
  ])('accepts %j', (key) => {
    expect(() => validateObjectKey(key)).not.toThrow();
  });

  it.each([
    ['', 'empty'],
    ['/abs', 'leading slash'],
    ['/', 'only a slash'],
    ['a//b', 'double slash'],
    ['a/', 'trailing slash'],
    ['..', 'bare parent segment'],
    ['../x', 'leading parent segment'],
    ['a/../b', 'inner parent segment'],
    ['a/..', 'trailing parent segment'],
    ['.', 'bare dot segment'],
    ['./a', 'leading dot segment'],
    ['a/./b', 'inner dot segment'],
    ['a/.', 'trailing dot segment'],
    ['a\\b', 'backslash'],
    ['..\\x', 'backslash traversal'],
    ['a\u0000b', 'NUL'],
    ['a\nb', 'newline'],
    ['a\tb', 'tab'],
    ['a\u001fb', 'unit separator'],
    ['a\u007fb', 'DEL'],
    ['a\u0085b', 'C1 control'],
    ['a\ud800b', 'lone surrogate'],
    ['x'.repeat(MAX_OBJECT_KEY_BYTES + 1), 'over 1024 bytes'],
    ['é'.repeat(513), 'over 1024 bytes of UTF-8 though 513 characters'],
  ])('rejects %j (%s)', (key) => {
    expect(() => validateObjectKey(key)).toThrow(InvalidObjectKeyError);
  });

  it('throws an error that names the key and the reason', () => {
    let caught: unknown;
    try {
      validateObjectKey('a//b');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidObjectKeyError);
    expect(caught).toMatchObject({ name: 'InvalidObjectKeyError', key: 'a//b' });
    expect((caught as Error).message).toContain('"//"');
  });
});

describe('validateObjectPrefix', () => {
  it.each(['', 'tenants/', 'tenants/t1/rep', 'a'])('accepts %j', (prefix) => {
    expect(() => validateObjectPrefix(prefix)).not.toThrow();
  });

  it.each([
    '/',
    '/abs',
    'a//',
    '../',
    'a/./',
    'a\\',
    'a\u0000',
    'x'.repeat(MAX_OBJECT_KEY_BYTES + 1),
  ])('rejects %j', (prefix) => {
    expect(() => validateObjectPrefix(prefix)).toThrow(InvalidObjectKeyError);
  });
});

describe('compareObjectKeys', () => {
  it('orders by UTF-8 bytes, as S3 lists, not by UTF-16 code units', () => {
    // U+FF5E is one UTF-16 unit but sorts after the surrogate pair of U+1F3E0 in UTF-16; in UTF-8
    // (EF BD 9E vs F0 9F 8F A0) it sorts before, which is S3's order.
    expect(['a/🏠', 'a/～', 'a/b', 'a/B', 'a'].sort(compareObjectKeys)).toEqual([
      'a',
      'a/B',
      'a/b',
      'a/～',
      'a/🏠',
    ]);
  });
});

describe('createObjectStore', () => {
  it('builds the local backend from a file URL', () => {
    const store = createObjectStore({ url: 'file:///var/lib/reports/objects' });
    expect(store.kind).toBe('local');
  });

  it('builds the S3 backend from an s3 URL', () => {
    const store = createObjectStore({
      url: 's3://reports-dev',
      s3Endpoint: 'http://127.0.0.1:9000',
    });
    expect(store.kind).toBe('s3');
  });

  it.each(['http://example.com/bucket', 'gs://bucket', 'relative/path'])(
    'rejects %j naming OBJECT_STORE_URL',
    (url) => {
      expect(() => createObjectStore({ url })).toThrow(/OBJECT_STORE_URL/);
    },
  );

  it.each(['s3://B', 's3://Upper-Case', 's3://bucket/with/path', 'file://host/dir'])(
    'rejects the malformed %j naming OBJECT_STORE_URL',
    (url) => {
      expect(() => createObjectStore({ url })).toThrow(/OBJECT_STORE_URL/);
    },
  );
});
