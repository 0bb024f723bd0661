-- Retrieval analytics (docs/adr/134-retrieval-analytics.md): GET /admin/retrieval/stats reads a
-- daily rollup per tenant, kept by a statement trigger on retrieval_logs, so its answer does not
-- grow with the log; GET /admin/retrieval/queries reads the log by time.

-- How many chunks a retrieval returned (0: it found nothing).
ALTER TABLE retrieval_logs
  ADD COLUMN result_count integer GENERATED ALWAYS AS (jsonb_array_length(results)) STORED;
CREATE INDEX retrieval_logs_time_idx ON retrieval_logs (created_at DESC);
CREATE INDEX retrieval_logs_zero_idx ON retrieval_logs (created_at DESC) WHERE result_count = 0;
CREATE INDEX retrieval_logs_tenant_zero_idx ON retrieval_logs (tenant_id, created_at DESC)
  WHERE result_count = 0;

-- Latency buckets: a value in ms falls in the first bucket whose upper bound it does not exceed;
-- the last bucket holds everything above the last bound. 1 ms wide up to 10 ms, then about a
-- fifth of their value.
CREATE FUNCTION latency_bounds() RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '{0,1,2,3,4,5,6,7,8,9,10,12,14,16,18,20,25,30,35,40,50,60,70,80,100,120,140,170,200,250,300,350,400,500,600,700,850,1000,1200,1500,2000,2500,3000,4000,5000,7000,10000,15000,20000,30000,60000}'::integer[]
$$;
CREATE FUNCTION latency_bucket(ms integer) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT width_bucket(greatest(ms, 0), '{1,2,3,4,5,6,7,8,9,10,11,13,15,17,19,21,26,31,36,41,51,61,71,81,101,121,141,171,201,251,301,351,401,501,601,701,851,1001,1201,1501,2001,2501,3001,4001,5001,7001,10001,15001,20001,30001,60001}'::integer[]) + 1
$$;

-- A histogram (one count per bucket) as an aggregate, and the sum of two histograms.
CREATE FUNCTION latency_hist_add(state integer[], ms integer) RETURNS integer[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE b integer := latency_bucket(ms);
BEGIN
  state[b] := state[b] + 1;
  RETURN state;
END $$;
CREATE AGGREGATE latency_hist(integer) (
  SFUNC = latency_hist_add, STYPE = integer[], INITCOND = '{0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0}'
);
CREATE FUNCTION int_array_add(a integer[], b integer[]) RETURNS integer[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i)
    FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;

-- One row per UTC day and tenant.
CREATE TABLE retrieval_log_daily (
  day             date NOT NULL,
  tenant_id       uuid NOT NULL,
  queries         integer NOT NULL,
  zero_results    integer NOT NULL,
  hyde            integer NOT NULL,
  reranked        integer NOT NULL,
  rerank_errors   integer NOT NULL,
  embed_hist      integer[] NOT NULL,
  retrieval_hist  integer[] NOT NULL,
  rerank_hist     integer[] NOT NULL,
  total_hist      integer[] NOT NULL,
  PRIMARY KEY (day, tenant_id)
);

CREATE FUNCTION retrieval_log_daily_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO retrieval_log_daily AS d
    SELECT (created_at AT TIME ZONE 'UTC')::date, tenant_id, count(*),
           count(*) FILTER (WHERE jsonb_array_length(results) = 0),
           count(*) FILTER (WHERE used_hyde), count(*) FILTER (WHERE reranked),
           count(*) FILTER (WHERE rerank_error IS NOT NULL),
           latency_hist(embed_ms), latency_hist(retrieval_ms), latency_hist(rerank_ms),
           latency_hist(total_ms)
      FROM added
     GROUP BY 1, 2
  ON CONFLICT (day, tenant_id) DO UPDATE SET
    queries = d.queries + EXCLUDED.queries,
    zero_results = d.zero_results + EXCLUDED.zero_results,
    hyde = d.hyde + EXCLUDED.hyde,
    reranked = d.reranked + EXCLUDED.reranked,
    rerank_errors = d.rerank_errors + EXCLUDED.rerank_errors,
    embed_hist = int_array_add(d.embed_hist, EXCLUDED.embed_hist),
    retrieval_hist = int_array_add(d.retrieval_hist, EXCLUDED.retrieval_hist),
    rerank_hist = int_array_add(d.rerank_hist, EXCLUDED.rerank_hist),
    total_hist = int_array_add(d.total_hist, EXCLUDED.total_hist);
  RETURN NULL;
END $$;
CREATE TRIGGER retrieval_log_daily_add AFTER INSERT ON retrieval_logs
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION retrieval_log_daily_add();

-- The log so far.
INSERT INTO retrieval_log_daily
  SELECT (created_at AT TIME ZONE 'UTC')::date, tenant_id, count(*),
         count(*) FILTER (WHERE jsonb_array_length(results) = 0),
         count(*) FILTER (WHERE used_hyde), count(*) FILTER (WHERE reranked),
         count(*) FILTER (WHERE rerank_error IS NOT NULL),
         latency_hist(embed_ms), latency_hist(retrieval_ms), latency_hist(rerank_ms),
         latency_hist(total_ms)
    FROM retrieval_logs
   GROUP BY 1, 2;

-- Chat turns and feedback in a window.
CREATE INDEX messages_assistant_time_idx ON messages (created_at) WHERE role = 'assistant';
