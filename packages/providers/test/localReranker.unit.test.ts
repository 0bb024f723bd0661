import { describe, expect, it } from 'vitest';
import { LocalReranker, rerankerFor, CohereReranker } from '../src/index.js';

const settings = {
  EMBEDDING_PROVIDER: 'local',
  LLM_PROVIDER: 'local',
  RERANK_ENABLED: false,
  RERANK_MODEL: 'rerank-v3.5',
} as const;

describe('local reranker', () => {
  const reranker = new LocalReranker();

  it('puts first the passage holding the fact asked, the rest in their order', async () => {
    const passages = [
      { text: 'The roof was inspected from the ground with binoculars.', title: 'Roof' },
      { text: 'The garden fence leans towards the neighbouring plot.', title: 'Garden' },
      {
        text: 'Heating system: gas boiler\n\nBoiler age: 14 years\n\nLast serviced: 2024',
        title: 'Heating',
      },
      { text: 'The report covers the visible parts of the house only.', title: 'Scope' },
    ];
    const results = await reranker.rerank('How old is the boiler?', passages);
    expect(results[0]).toMatchObject({ index: 2 });
    expect(results[0]!.score).toBeGreaterThan(0);
    expect([...results.map((r) => r.index)].sort()).toEqual([0, 1, 2, 3]);
    // Passages with nothing asked keep their fused order after those that match.
    const unmatched = results.filter((r) => r.score === 0).map((r) => r.index);
    expect(unmatched).toEqual([...unmatched].sort((a, b) => a - b));
  });

  it('reads the section a passage is filed under', async () => {
    const passages = [
      { text: 'Type: Asphalt shingle\n\nApproximate age: 12 years', title: 'Water heater' },
      { text: 'Type: Asphalt shingle\n\nApproximate age: 12 years', title: 'Roof covering' },
    ];
    const results = await reranker.rerank('What type of roof covering is it?', passages);
    expect(results[0]!.index).toBe(1);
  });

  it('ranks plain strings, nothing for no passages, and stops when aborted', async () => {
    expect(await reranker.rerank('anything', [])).toEqual([]);
    const results = await reranker.rerank('What is the panel amperage?', [
      'The kitchen has new cabinets.',
      'Main panel amperage: 200 AMP',
    ]);
    expect(results.map((r) => r.index)).toEqual([1, 0]);
    const controller = new AbortController();
    controller.abort();
    await expect(reranker.rerank('roof', ['roof'], controller.signal)).rejects.toThrow();
  });

  it('is the configured reranker when rerank is enabled without an endpoint', () => {
    expect(rerankerFor(settings)).toBeNull();
    expect(rerankerFor({ ...settings, RERANK_ENABLED: true })).toBeInstanceOf(LocalReranker);
    expect(
      rerankerFor({
        ...settings,
        RERANK_ENABLED: true,
        RERANK_URL: 'http://127.0.0.1:9/v2/rerank',
      }),
    ).toBeInstanceOf(CohereReranker);
  });
});
