import { describe, expect, it } from 'vitest';
import {
  BM25_B,
  BM25_K1,
  MAX_PREFIX,
  opensearchBulkBody,
  opensearchIndexBody,
  opensearchSearchBody,
} from '../src/index.js';

describe('the OpenSearch index mapping', () => {
  const body = opensearchIndexBody() as {
    settings: {
      index: { similarity: { default: Record<string, unknown> } };
      analysis: { analyzer: Record<string, { filter: string[] }>; filter: Record<string, unknown> };
    };
    mappings: {
      properties: Record<string, { type: string; analyzer?: string; search_analyzer?: string }>;
    };
  };

  it('scores with BM25 and the same k1 and b as Postgres', () => {
    expect(body.settings.index.similarity.default).toEqual({
      type: 'BM25',
      k1: BM25_K1,
      b: BM25_B,
    });
  });

  it('indexes folded, unstemmed word prefixes and searches folded whole words', () => {
    const content = body.mappings.properties.content!;
    expect(content).toMatchObject({
      type: 'text',
      analyzer: 'folded_prefixes',
      search_analyzer: 'folded_words',
    });
    const { analyzer, filter } = body.settings.analysis;
    expect(analyzer.folded_prefixes!.filter).toEqual([
      'lowercase',
      'asciifolding',
      'word_prefixes',
    ]);
    expect(analyzer.folded_words!.filter).toEqual(['lowercase', 'asciifolding']);
    expect(filter.word_prefixes).toEqual({ type: 'edge_ngram', min_gram: 1, max_gram: MAX_PREFIX });
    const everyFilter = Object.values(analyzer).flatMap((a) => a.filter);
    expect(everyFilter.some((f) => /stem|snowball|porter/i.test(f))).toBe(false);
  });

  it('keeps ids as keywords so a folder is an exact filter', () => {
    for (const field of ['chunk_id', 'tenant_id', 'report_id', 'target_id']) {
      expect(body.mappings.properties[field]).toEqual({ type: 'keyword' });
    }
  });
});

describe('the OpenSearch queries', () => {
  it('filters to the folder and matches any query word by BM25', () => {
    expect(opensearchSearchBody({ reportIds: ['r-1'], chunkIds: null }, 'damp roof', 20)).toEqual({
      size: 20,
      _source: false,
      track_total_hits: false,
      query: {
        bool: {
          filter: [{ terms: { report_id: ['r-1'] } }],
          must: [{ match: { content: { query: 'damp roof', operator: 'or' } } }],
        },
      },
      sort: [{ _score: 'desc' }, { chunk_id: 'asc' }],
    });
  });

  it('filters to several folders and, for a section, to its chunks', () => {
    const body = opensearchSearchBody({ reportIds: ['r-1', 'r-2'], chunkIds: ['c-1'] }, 'roof', 5);
    expect((body.query as { bool: { filter: unknown[] } }).bool.filter).toEqual([
      { terms: { report_id: ['r-1', 'r-2'] } },
      { ids: { values: ['c-1'] } },
    ]);
  });

  it('indexes each chunk under its own id', () => {
    expect(
      opensearchBulkBody('chunks', [
        { id: 'c1', tenant_id: 't', report_id: 'r', target_id: 'g', content: 'roof' },
      ]),
    ).toEqual([
      { index: { _index: 'chunks', _id: 'c1' } },
      { chunk_id: 'c1', tenant_id: 't', report_id: 'r', target_id: 'g', content: 'roof' },
    ]);
  });
});
