-- One row per retrieval (POST /retrieve, the admin diagnostic, the chat's retrieval): what was
-- asked, how it was answered, how long each part took, and which chunks came back in which
-- order. Its id is the response's `retrieval_log_id` (and the chat's X-Retrieval-Log-Id).
-- No foreign key to reports, like stage_runs: the history outlives a deleted report.
CREATE TABLE retrieval_logs (
  id                  uuid PRIMARY KEY,
  tenant_id           uuid NOT NULL,
  report_id           uuid NOT NULL,
  caller              text NOT NULL CHECK (caller IN ('user', 'admin')),
  user_id             uuid,
  scope_type          text NOT NULL,
  query               text NOT NULL,
  -- The hypothetical passage a model wrote for the vector leg (HyDE), when it did.
  hyde_text           text,
  top_k               integer NOT NULL,
  legs                text NOT NULL CHECK (legs IN ('hybrid', 'keyword', 'vector')),
  fusion              text NOT NULL DEFAULT 'hybrid_rrf',
  keyword_backend     text NOT NULL,
  embedding_model     text,
  used_hyde           boolean NOT NULL,
  reranked            boolean NOT NULL,
  rerank_error        text,
  diversity_swaps     smallint NOT NULL DEFAULT 0,
  keyword_candidates  integer NOT NULL,
  vector_candidates   integer NOT NULL,
  hyde_ms             integer NOT NULL DEFAULT 0,
  embed_ms            integer NOT NULL,
  keyword_ms          integer NOT NULL,
  vector_ms           integer NOT NULL,
  retrieval_ms        integer NOT NULL,
  rerank_ms           integer NOT NULL,
  total_ms            integer NOT NULL,
  -- [{ chunk_id, rank, rrf_score, bm25_rank, vector_rank, rerank_score }] in answer order.
  results             jsonb NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX retrieval_logs_tenant_time_idx ON retrieval_logs (tenant_id, created_at DESC);
CREATE INDEX retrieval_logs_report_time_idx ON retrieval_logs (report_id, created_at DESC);
