import { describe, expect, it } from 'vitest';
import {
  GARBLED_SHARE,
  SCAN_MAX_CHARS,
  SHIFTED_SHARE,
  judgeTextLayer,
  markdownBlocks,
} from '../src/index.js';

describe('the usable text layer rule', () => {
  it('uses a page with ordinary text', () => {
    expect(judgeTextLayer('The roof slopes show slipped slates.', false)).toMatchObject({
      usable: true,
      reason: 'ok',
    });
  });

  it('sends a page without any visible character to OCR', () => {
    expect(judgeTextLayer('  \n\t ', false)).toMatchObject({ usable: false, reason: 'empty' });
  });

  it(`sends a page to OCR when ${GARBLED_SHARE * 100}% or more of its characters are unmappable`, () => {
    // Replacement characters and private-use code points: fonts without a Unicode mapping.
    const garbled = 'Th\ufffd r\ue001\ue002f \ufffd\ufffd sound';
    const verdict = judgeTextLayer(garbled, false);
    expect(verdict).toMatchObject({ usable: false, reason: 'garbled' });
    expect(verdict.unmappable / verdict.chars).toBeGreaterThanOrEqual(GARBLED_SHARE);
    expect(judgeTextLayer('Façade: 20 m² at £425,000 \ufffd', false).usable).toBe(true);
  });

  it(`sends a page to OCR when ${SHIFTED_SHARE * 100}% or more of 40 characters are symbols of a shifted font`, () => {
    // A county's tax page printed with a font whose codes are glyph numbers shifted into ASCII.
    const shifted =
      '<./;6.=ÿ-814.>ÿ@ABCDÿECFCGHIJCKLÿGGM N6OÿP0Q4>ÿMRSTUV W40P0Q4>ÿXYZXUVSZV[ZYZXVZRSZXXXX';
    expect(judgeTextLayer(shifted, false)).toMatchObject({ usable: false, reason: 'garbled' });
    // Prose with a few such symbols, and a short line of them, are read as they are.
    const prose =
      'Site Improvements: 66,832 sf @ $4.15 psf = $277,353 (see [1]); the yard is <5% of the site.';
    expect(judgeTextLayer(prose, false).usable).toBe(true);
    expect(judgeTextLayer('<= 10 m> @ 3', false).usable).toBe(true);
  });

  it(`treats a page that draws an image and has under ${SCAN_MAX_CHARS} characters as a scan`, () => {
    expect(judgeTextLayer('Page 3', true)).toMatchObject({ usable: false, reason: 'scan' });
    expect(judgeTextLayer('Page 3', false).usable).toBe(true);
    expect(judgeTextLayer('Photograph 3: the rear elevation from the garden', true).usable).toBe(
      true,
    );
  });
});

describe('OCR markdown blocks', () => {
  it('reads headings, GFM tables (separator dropped) and paragraphs', () => {
    const md =
      '# Roof\n\nThe slopes are\nsound.\n\n| Room | Size |\n| --- | --- |\n| Hall | 3 m |\n\n## Walls\nBrick.';
    expect(markdownBlocks(md)).toEqual([
      { kind: 'heading', level: 1, text: 'Roof' },
      { kind: 'paragraph', text: 'The slopes are sound.' },
      {
        kind: 'table',
        rows: [
          ['Room', 'Size'],
          ['Hall', '3 m'],
        ],
      },
      { kind: 'heading', level: 2, text: 'Walls' },
      { kind: 'paragraph', text: 'Brick.' },
    ]);
  });
});
