import type { Pool } from '@reports/platform';
import type { KeywordIndex } from './keywordIndex.js';
import { OpenSearchKeywordIndex } from './opensearch.js';
import { PostgresKeywordIndex } from './postgresBm25.js';

/** OpenSearch when `OPENSEARCH_URL` is set, else Postgres (design.md section 6). */
export function keywordIndexFor(
  config: { OPENSEARCH_URL?: string | undefined; OPENSEARCH_INDEX: string },
  pool: Pool,
): KeywordIndex {
  return config.OPENSEARCH_URL
    ? new OpenSearchKeywordIndex(config.OPENSEARCH_URL, config.OPENSEARCH_INDEX)
    : new PostgresKeywordIndex(pool);
}
