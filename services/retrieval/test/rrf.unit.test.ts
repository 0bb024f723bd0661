import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion, type LegHit } from '../src/fusion/rrf.js';

const hits = (...ids: string[]): LegHit[] =>
  ids.map((id, i) => ({ chunk_id: id, rank: i + 1, score: 10 - i }));

describe('reciprocal rank fusion', () => {
  it('scores a chunk found by both legs 1/(60+vector_rank) + 1/(60+bm25_rank)', () => {
    const [top] = reciprocalRankFusion(hits('a', 'b'), hits('b', 'a'));
    expect(top!.rrf_score).toBeCloseTo(1 / 61 + 1 / 62, 12);
  });

  it('keeps a chunk found by one leg only, with null rank and score for the other (outer join)', () => {
    const fused = reciprocalRankFusion(hits('a'), hits('v'));
    const a = fused.find((f) => f.chunk_id === 'a')!;
    const v = fused.find((f) => f.chunk_id === 'v')!;
    expect(a).toMatchObject({ bm25_rank: 1, bm25_score: 10, vector_rank: null, vector_dist: null });
    expect(v).toMatchObject({ vector_rank: 1, vector_dist: 10, bm25_rank: null, bm25_score: null });
    expect(a.rrf_score).toBeCloseTo(1 / 61, 12);
  });

  it('puts a chunk both legs found above chunks found by one leg at a better rank', () => {
    const fused = reciprocalRankFusion(hits('k1', 'both'), hits('v1', 'both'));
    expect(fused[0]!.chunk_id).toBe('both');
  });

  it('breaks ties by the better single rank, then by the keyword leg, never by id alone', () => {
    const fused = reciprocalRankFusion(hits('b', 'x'), hits('a', 'y'));
    // a and b tie (1/61 each), x and y tie (1/62 each): the keyword leg's chunk goes first.
    expect(fused.map((f) => f.chunk_id)).toEqual(['b', 'a', 'x', 'y']);
    // Found by both legs, crosswise: q is first by keyword, p by vector; q goes first.
    const crossed = reciprocalRankFusion(hits('q', 'n', 'p'), hits('p', 'm', 'q'));
    expect(crossed.map((f) => f.chunk_id)).toEqual(['q', 'p', 'n', 'm']);
  });

  it('returns nothing when both legs found nothing', () => {
    expect(reciprocalRankFusion([], [])).toEqual([]);
  });

  it('keeps one leg order untouched when the other leg is empty', () => {
    expect(reciprocalRankFusion(hits('c', 'a', 'b'), []).map((f) => f.chunk_id)).toEqual([
      'c',
      'a',
      'b',
    ]);
  });

  it('counts a chunk a leg listed twice only at its first rank', () => {
    const [only] = reciprocalRankFusion([...hits('a'), { chunk_id: 'a', rank: 2, score: 1 }], []);
    expect(only!.rrf_score).toBeCloseTo(1 / 61, 12);
  });

  it('uses the constant it is given', () => {
    const [top] = reciprocalRankFusion(hits('a'), hits('a'), { k: 10, keywordWeight: 1 });
    expect(top!.rrf_score).toBeCloseTo(2 / 11, 12);
  });

  it('weighs the keyword term when asked to (operator option)', () => {
    const fused = reciprocalRankFusion(hits('k1', 'k2'), hits('v1', 'k2'), {
      k: 60,
      keywordWeight: 3,
    });
    expect(fused.find((f) => f.chunk_id === 'k2')!.rrf_score).toBeCloseTo(3 / 62 + 1 / 62, 12);
    expect(fused[0]!.chunk_id).toBe('k2');
    expect(fused[1]!.chunk_id).toBe('k1');
  });
});
