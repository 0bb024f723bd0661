import { describe, expect, it } from 'vitest';
import { fontHeadings, labelValuePairs } from '../src/parse/pdf/headings.js';
import type { Line } from '../src/parse/pdf/lines.js';

const line = (text: string, size: number, y: number): Line => ({
  page: 1,
  y,
  x: 50,
  end: 50 + text.length * size * 0.5,
  size,
  text,
  segments: [],
});

describe('headings by font size', () => {
  it('count the label/value pairs of a line', () => {
    expect(labelValuePairs('Chapter 3: Roof')).toBe(1);
    expect(labelValuePairs('Property: 12 Elm Road Inspection Type: Pre-Purchase')).toBe(2);
    expect(labelValuePairs('Notes:')).toBe(0);
  });

  it('leave a grid of labels and values set in a large font as body text', () => {
    const lines = [
      line('Home Inspection Report', 18, 780),
      line('Property: 12 Elm Road Inspection Type: Pre-Purchase', 13, 750),
      line('Date: 3 March 2026', 13, 735),
      line('The house was inspected on a dry day.', 10, 700),
      line('Chapter 3: Roof', 13, 660),
      line('The slates are sound.', 10, 640),
    ];
    expect(fontHeadings(lines, 10).map((h) => [h.name, h.level])).toEqual([
      ['Home Inspection Report', 1],
      ['Chapter 3: Roof', 2],
    ]);
  });
});
