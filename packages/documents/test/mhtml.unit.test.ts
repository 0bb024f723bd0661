import { describe, expect, it } from 'vitest';
import { resolveMhtmlReference, type MhtmlPart } from '../src/index.js';

const parts: MhtmlPart[] = [
  { contentId: 'photo-front@mhtml.blink', location: 'https://surveys.example/r/images/front.png' },
  { contentId: null, location: 'https://surveys.example/r/images/rear%20garden.png' },
  { contentId: null, location: 'file:///C:/Users/s/report_files/image001.png' },
];
const base = 'https://surveys.example/r/index.html';

describe('MHTML reference resolution', () => {
  it('finds a part by cid: against its Content-ID', () => {
    expect(resolveMhtmlReference('cid:photo-front@mhtml.blink', base, parts)).toBe(0);
    expect(resolveMhtmlReference('cid:missing@x', base, parts)).toBeNull();
  });

  it('finds a part by its Content-Location, exact or resolved against the page', () => {
    expect(resolveMhtmlReference('https://surveys.example/r/images/front.png', null, parts)).toBe(
      0,
    );
    expect(resolveMhtmlReference('images/rear%20garden.png', base, parts)).toBe(1);
    expect(resolveMhtmlReference('../r/images/front.png#x', base, parts)).toBe(0);
  });

  it('finds a relative reference that ends a file: location (Word and IE savers)', () => {
    expect(resolveMhtmlReference('report_files/image001.png', null, parts)).toBe(2);
  });

  it('resolves nothing it does not hold: a remote URL stays unresolved (and is never fetched)', () => {
    expect(resolveMhtmlReference('http://127.0.0.1:9/canary.png', base, parts)).toBeNull();
    expect(resolveMhtmlReference('', base, parts)).toBeNull();
  });
});
