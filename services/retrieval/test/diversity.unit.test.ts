import { describe, expect, it } from 'vitest';
import { diversify } from '../src/diversity/diversity.js';

interface Item {
  id: string;
  source_type: string;
  score: number;
}
/** Items best first, from compact specs like 'main:0.9'. */
const list = (...specs: string[]): Item[] =>
  specs.map((s, i) => {
    const [source_type, score] = s.split(':');
    return { id: `c${i}`, source_type: source_type!, score: Number(score) };
  });
const ids = (items: Item[]) => items.map((i) => i.id);

describe('the diversity rule', () => {
  it('swaps the lowest-scored chunk of the dominant type for the best chunk of a missing type', () => {
    const ranked = list('main:9', 'main:8', 'main:7', 'main:6', 'attachment:5', 'attachment:4');
    const { selected, swaps } = diversify(ranked, 4);
    expect(swaps).toBe(1);
    expect(ids(selected)).toEqual(['c0', 'c1', 'c2', 'c4']);
  });

  it('does nothing when top_k is below 4', () => {
    const ranked = list('main:9', 'main:8', 'main:7', 'attachment:5');
    expect(diversify(ranked, 3)).toEqual({ selected: ranked.slice(0, 3), swaps: 0 });
  });

  it('does nothing when only one source type is present', () => {
    const ranked = list('main:9', 'main:8', 'main:7', 'main:6', 'main:5');
    expect(diversify(ranked, 4)).toEqual({ selected: ranked.slice(0, 4), swaps: 0 });
  });

  it('does nothing when every present type is already selected', () => {
    const ranked = list('main:9', 'attachment:8', 'main:7', 'main:6', 'attachment:5');
    expect(diversify(ranked, 4).swaps).toBe(0);
  });

  it('makes at most 2 swaps, however many types are missing', () => {
    const ranked = list('main:9', 'main:8', 'main:7', 'main:6', 'main:5', 'a:4', 'b:3', 'c:2');
    const { selected, swaps } = diversify(ranked, 5);
    expect(swaps).toBe(2);
    expect(ids(selected)).toEqual(['c0', 'c1', 'c2', 'c5', 'c6']);
    expect(selected.some((i) => i.source_type === 'c')).toBe(false);
  });

  it('brings the missing type whose best chunk scores highest first', () => {
    const ranked = list('main:9', 'main:8', 'main:7', 'main:6', 'figure:3', 'attachment:5');
    const { selected, swaps } = diversify(ranked, 4);
    // Both missing types come in, the better one in place of the weakest main chunk.
    expect(swaps).toBe(2);
    expect(ids(selected)).toEqual(['c0', 'c1', 'c5', 'c4']);
  });

  it('never swaps out the only chunk of a type', () => {
    const ranked = list('main:9', 'table:8', 'figure:7', 'attachment:6', 'note:5');
    expect(diversify(ranked, 4).swaps).toBe(0);
  });

  it('orders the result by score, so a swapped-in chunk takes its place by its own score', () => {
    const ranked = list(
      'main:9',
      'main:8',
      'attachment:7',
      'attachment:6.5',
      'attachment:6',
      'figure:5',
    );
    const { selected } = diversify(ranked, 5);
    expect(selected.map((i) => i.score)).toEqual([9, 8, 7, 6.5, 5]);
    expect(selected.at(-1)!.source_type).toBe('figure');
  });

  it('takes the dominant type by count, not by score', () => {
    const ranked = list(
      'main:9',
      'attachment:8',
      'attachment:7',
      'attachment:6',
      'main:5.5',
      'figure:5',
    );
    const { selected } = diversify(ranked, 5);
    // attachment holds 3 of 5: its weakest (6) leaves, main keeps both chunks.
    expect(ids(selected)).toEqual(['c0', 'c1', 'c2', 'c4', 'c5']);
  });

  it('handles fewer candidates than top_k', () => {
    const ranked = list('main:9', 'main:8', 'attachment:7');
    expect(diversify(ranked, 8)).toEqual({ selected: ranked, swaps: 0 });
  });

  it('leaves its input list untouched', () => {
    const ranked = list('main:9', 'main:8', 'main:7', 'main:6', 'attachment:5');
    const copy = structuredClone(ranked);
    diversify(ranked, 4);
    expect(ranked).toEqual(copy);
  });
});
