import type { Pool } from '@reports/platform';
import {
  BM25_B,
  BM25_K1,
  ranked,
  type KeywordHit,
  type KeywordIndex,
  type SearchScope,
} from './keywordIndex.js';

/**
 * BM25 in one statement over the statistics migration 0020 keeps by trigger
 * (`chunk_terms` postings, `keyword_folders` sizes). Query words are the lexemes of
 * `to_tsvector('simple', immutable_unaccent(query))`, the same tokenisation as `chunks.tsv`.
 *
 * Prefix matching: a query word `q` stands for every lexeme of the folder that starts with it
 * (a range scan of the primary key). Its term frequency in a chunk is the sum over those
 * lexemes, its document frequency the number of chunks holding any of them: exactly what an
 * index of word prefixes (OpenSearch's edge n-grams) gives. Then, per chunk,
 *   score = sum over query words q of qtf(q) * idf(q) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))
 *   idf(q) = ln(1 + (N - df + 0.5) / (df + 0.5))
 * with N and avgdl of the folder: statistics never come from other reports. `$1` is an array
 * of folders: over several (a multi-report scope) N, avgdl and df are those of their union, so
 * a chunk scores as it would if the folders were one. `$4`, when not null, keeps only those
 * chunks (a section scope; the statistics stay the folder's).
 */
export const BM25_SQL = `
WITH q AS (
  SELECT u.lexeme AS prefix, coalesce(array_length(u.positions, 1), 1)::float8 AS qtf
    FROM unnest(to_tsvector('simple', immutable_unaccent($2::text))) AS u
),
folder AS (
  SELECT docs::float8 AS n, greatest(total_length::float8 / greatest(docs, 1), 1) AS avgdl
    FROM (SELECT sum(docs) AS docs, sum(total_length) AS total_length
            FROM keyword_folders WHERE report_id = ANY($1::uuid[])) u
   WHERE docs IS NOT NULL
),
hits AS (
  SELECT q.prefix, q.qtf, p.chunk_id, sum(p.tf)::float8 AS tf, min(p.dl)::float8 AS dl
    FROM q CROSS JOIN LATERAL (
      SELECT t.chunk_id, t.tf, t.dl FROM chunk_terms t
       WHERE t.report_id = ANY($1::uuid[]) AND t.term >= q.prefix AND t.term < q.prefix || chr(1114111)
      -- OFFSET 0 keeps this a range scan of the primary key per query word. Without it, on a
      -- table not analyzed yet (right after a bulk ingest) the planner may flatten the subquery
      -- and filter every posting of the folder against every word: 30x slower.
      OFFSET 0
    ) p
   GROUP BY q.prefix, q.qtf, p.chunk_id
),
idf AS (
  SELECT h.prefix, ln(1 + (f.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf
    FROM hits h CROSS JOIN folder f
   GROUP BY h.prefix, f.n
)
SELECT h.chunk_id::text AS chunk_id,
       sum(h.qtf * i.idf * h.tf * (${BM25_K1} + 1) / (h.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * h.dl / f.avgdl))) AS score
  FROM hits h JOIN idf i USING (prefix) CROSS JOIN folder f
 WHERE $4::uuid[] IS NULL OR h.chunk_id = ANY($4::uuid[])
 GROUP BY h.chunk_id
 ORDER BY score DESC, h.chunk_id
 LIMIT $3`;

export class PostgresKeywordIndex implements KeywordIndex {
  readonly backend = 'postgres';

  constructor(private readonly pool: Pool) {}

  async search(reportId: string, query: string, limit: number): Promise<KeywordHit[]> {
    return this.searchScope({ reportIds: [reportId], chunkIds: null }, query, limit);
  }

  async searchScope(scope: SearchScope, query: string, limit: number): Promise<KeywordHit[]> {
    const { rows } = await this.pool.query<{ chunk_id: string; score: number }>(BM25_SQL, [
      scope.reportIds,
      query,
      limit,
      scope.chunkIds,
    ]);
    return ranked(rows.map((r) => ({ chunk_id: r.chunk_id, score: Number(r.score) })));
  }

  async replaceTarget(): Promise<void> {
    // The triggers of migration 0020 index chunks in the transaction that writes them.
  }

  async ensureReady(): Promise<void> {
    // The migrations create everything.
  }
}
