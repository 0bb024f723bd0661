import { Client } from '@opensearch-project/opensearch';
import {
  BM25_B,
  BM25_K1,
  ranked,
  type IndexableChunk,
  type KeywordHit,
  type KeywordIndex,
  type SearchScope,
} from './keywordIndex.js';

/** Longest word prefix indexed; a longer query word still matches words it is a prefix of up to this length. */
export const MAX_PREFIX = 24;

/**
 * Settings and mapping of the chunk index. `content` is indexed as every prefix of every word
 * (standard tokenizer, lowercase, asciifolding, edge n-grams 1..MAX_PREFIX) and searched as
 * whole folded words: a query word then matches the prefix token it equals, whose term frequency
 * in a chunk is the number of the chunk's words starting with it and whose document frequency is
 * the number of chunks holding such a word, as in the Postgres backend. No stemmer anywhere.
 * Similarity is BM25 with the same k1 and b. `report_id` is a keyword used as a filter.
 */
export function opensearchIndexBody(): Record<string, unknown> {
  return {
    settings: {
      index: {
        number_of_shards: 1,
        similarity: { default: { type: 'BM25', k1: BM25_K1, b: BM25_B } },
      },
      analysis: {
        filter: {
          word_prefixes: { type: 'edge_ngram', min_gram: 1, max_gram: MAX_PREFIX },
        },
        analyzer: {
          folded_prefixes: {
            type: 'custom',
            tokenizer: 'standard',
            filter: ['lowercase', 'asciifolding', 'word_prefixes'],
          },
          folded_words: {
            type: 'custom',
            tokenizer: 'standard',
            filter: ['lowercase', 'asciifolding'],
          },
        },
      },
    },
    mappings: {
      dynamic: 'strict',
      properties: {
        chunk_id: { type: 'keyword' },
        tenant_id: { type: 'keyword' },
        report_id: { type: 'keyword' },
        target_id: { type: 'keyword' },
        content: {
          type: 'text',
          analyzer: 'folded_prefixes',
          search_analyzer: 'folded_words',
          similarity: 'default',
        },
      },
    },
  };
}

/**
 * The search a scope query sends: BM25 over `content` (any word), filtered to the scope's
 * folders and, for a section scope, to its chunks (document id = chunk id).
 */
export function opensearchSearchBody(
  scope: SearchScope,
  query: string,
  limit: number,
): Record<string, unknown> {
  const filter: unknown[] = [{ terms: { report_id: [...scope.reportIds] } }];
  if (scope.chunkIds) filter.push({ ids: { values: [...scope.chunkIds] } });
  return {
    size: limit,
    _source: false,
    track_total_hits: false,
    query: {
      bool: {
        filter,
        must: [{ match: { content: { query, operator: 'or' } } }],
      },
    },
    sort: [{ _score: 'desc' }, { chunk_id: 'asc' }],
  };
}

/** Bulk body that indexes `chunks` (document id = chunk id). */
export function opensearchBulkBody(
  index: string,
  chunks: IndexableChunk[],
): Array<Record<string, unknown>> {
  return chunks.flatMap((c) => [
    { index: { _index: index, _id: c.id } },
    {
      chunk_id: c.id,
      tenant_id: c.tenant_id,
      report_id: c.report_id,
      target_id: c.target_id,
      content: c.content,
    },
  ]);
}

/**
 * Keyword leg on OpenSearch (when `OPENSEARCH_URL` is set). One index per environment
 * (`OPENSEARCH_INDEX`), one shard, so document frequencies are exact for the index.
 * Unlike Postgres, IDF and average length are those of the whole index, not of the folder.
 */
export class OpenSearchKeywordIndex implements KeywordIndex {
  readonly backend = 'opensearch';
  private readonly client: Client;

  constructor(
    url: string,
    private readonly index: string,
  ) {
    this.client = new Client({ node: url });
  }

  async ensureReady(): Promise<void> {
    const exists = await this.client.indices.exists({ index: this.index });
    if (exists.body) return;
    try {
      await this.client.indices.create({ index: this.index, body: opensearchIndexBody() as never });
    } catch (error) {
      // Another replica created it first.
      if (!/resource_already_exists/i.test(String((error as Error).message))) throw error;
    }
  }

  async search(reportId: string, query: string, limit: number): Promise<KeywordHit[]> {
    return this.searchScope({ reportIds: [reportId], chunkIds: null }, query, limit);
  }

  async searchScope(scope: SearchScope, query: string, limit: number): Promise<KeywordHit[]> {
    const res = await this.client.search({
      index: this.index,
      body: opensearchSearchBody(scope, query, limit) as never,
    });
    const hits = (res.body.hits?.hits ?? []) as Array<{ _id: string; _score: number | null }>;
    return ranked(hits.map((h) => ({ chunk_id: h._id, score: Number(h._score ?? 0) })));
  }

  async replaceTarget(
    target: { reportId: string; targetId: string },
    chunks: IndexableChunk[],
  ): Promise<void> {
    await this.client.deleteByQuery({
      index: this.index,
      body: { query: { term: { target_id: target.targetId } } } as never,
      refresh: true,
      conflicts: 'proceed',
    });
    for (let i = 0; i < chunks.length; i += 500) {
      const res = await this.client.bulk({
        body: opensearchBulkBody(this.index, chunks.slice(i, i + 500)) as never,
        refresh: i + 500 >= chunks.length,
      });
      if (res.body.errors)
        throw new Error(`OpenSearch bulk indexing failed for target ${target.targetId}`);
    }
  }
}
