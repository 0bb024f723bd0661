import { describe, expect, it } from 'vitest';
import { diversifyReports } from '../src/diversity/diversity.js';

const item = (report_id: string, score: number) => ({ report_id, score });

describe('diversity across reports (multi_report scope)', () => {
  it('swaps the weakest chunks for the best of two other reports when one report takes every slot', () => {
    const ranked = [
      item('a', 0.9),
      item('a', 0.8),
      item('a', 0.7),
      item('a', 0.6),
      item('a', 0.5),
      item('b', 0.4),
      item('b', 0.35),
      item('c', 0.3),
    ];
    const { selected, swaps } = diversifyReports(ranked, 4);
    expect(swaps).toBe(2);
    expect(selected).toEqual([item('a', 0.9), item('a', 0.8), item('b', 0.4), item('c', 0.3)]);
  });

  it('leaves a selection that already spans two reports as ranked', () => {
    const ranked = [item('a', 0.9), item('b', 0.8), item('a', 0.7), item('c', 0.6)];
    expect(diversifyReports(ranked, 3)).toEqual({ selected: ranked.slice(0, 3), swaps: 0 });
  });

  it('does nothing when no other report has a candidate, or top_k is 1', () => {
    const ranked = [item('a', 0.9), item('a', 0.8), item('a', 0.7)];
    expect(diversifyReports(ranked, 2).swaps).toBe(0);
    expect(diversifyReports([item('a', 0.9), item('b', 0.8)], 1).swaps).toBe(0);
  });

  it('keeps at least one chunk of the leading report at top_k 2', () => {
    const ranked = [item('a', 0.9), item('a', 0.8), item('b', 0.2), item('c', 0.1)];
    expect(diversifyReports(ranked, 2)).toEqual({
      selected: [item('a', 0.9), item('b', 0.2)],
      swaps: 1,
    });
  });
});
