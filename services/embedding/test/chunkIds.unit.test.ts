import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { documentOrderIds } from '../src/embed/chunkIds.js';

describe('document-order chunk ids', () => {
  const at = new Date('2026-05-04T08:30:00.123Z');

  it('are version 7 uuids that begin with the upload time', () => {
    const ids = documentOrderIds(at, 3);
    for (const id of ids) {
      expect(z.uuid().safeParse(id).success).toBe(true);
      expect(id[14]).toBe('7');
      expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at.getTime());
    }
  });

  it('sort as text in the order they were given, past the 16th and 256th chunk', () => {
    const ids = documentOrderIds(at, 300);
    expect(new Set(ids).size).toBe(300);
    expect([...ids].sort()).toEqual(ids);
  });

  it('differ between two writes of the same millisecond, and sort by time first', () => {
    const a = documentOrderIds(at, 2);
    const b = documentOrderIds(at, 2);
    expect(a[0]).not.toBe(b[0]);
    const later = documentOrderIds(new Date(at.getTime() + 1), 1);
    expect(later[0]! > a[1]! && later[0]! > b[1]!).toBe(true);
  });

  it('refuses a time that does not fit the 48 bits of the id', () => {
    expect(() => documentOrderIds(new Date(-1), 1)).toThrow(RangeError);
  });
});
