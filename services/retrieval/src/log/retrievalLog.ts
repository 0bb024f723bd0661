import {
  retrievalLogDropped,
  retrievalLogQueued,
  retrievalLogWrites,
  type Logger,
  type Pool,
} from '@reports/platform';

/** One row of `retrieval_logs` (migration 0021). */
export interface RetrievalLogEntry {
  id: string;
  /** When the retrieval was asked (the row is written a little later). */
  created_at: Date;
  tenant_id: string;
  report_id: string;
  caller: 'user' | 'admin';
  user_id: string | null;
  scope_type: string;
  query: string;
  hyde_text: string | null;
  top_k: number;
  legs: 'hybrid' | 'keyword' | 'vector';
  keyword_backend: string;
  embedding_model: string | null;
  used_hyde: boolean;
  reranked: boolean;
  rerank_error: string | null;
  diversity_swaps: number;
  keyword_candidates: number;
  vector_candidates: number;
  hyde_ms: number;
  embed_ms: number;
  keyword_ms: number;
  vector_ms: number;
  retrieval_ms: number;
  rerank_ms: number;
  total_ms: number;
  results: Array<{
    chunk_id: string;
    rank: number;
    rrf_score: number;
    bm25_rank: number | null;
    vector_rank: number | null;
    rerank_score: number | null;
  }>;
}

const COLUMNS = [
  'id',
  'created_at',
  'tenant_id',
  'report_id',
  'caller',
  'user_id',
  'scope_type',
  'query',
  'hyde_text',
  'top_k',
  'legs',
  'keyword_backend',
  'embedding_model',
  'used_hyde',
  'reranked',
  'rerank_error',
  'diversity_swaps',
  'keyword_candidates',
  'vector_candidates',
  'hyde_ms',
  'embed_ms',
  'keyword_ms',
  'vector_ms',
  'retrieval_ms',
  'rerank_ms',
  'total_ms',
  'results',
] as const;

/** Rows per INSERT: 27 parameters each, well under Postgres's 65 535. */
const BATCH_ROWS = 500;

/** One INSERT of several rows: the rollup trigger (migration 0081) runs once for all of them. */
export async function insertRetrievalLogs(
  pool: Pool,
  entries: readonly RetrievalLogEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const values: unknown[] = [];
  const tuples = entries.map((entry) => {
    const first = values.length;
    for (const c of COLUMNS)
      values.push(c === 'results' ? JSON.stringify(entry.results) : entry[c]);
    return `(${COLUMNS.map((_, i) => `$${first + i + 1}`).join(', ')})`;
  });
  await pool.query(
    `INSERT INTO retrieval_logs (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`,
    values,
  );
}

export interface RetrievalLogWriterOptions {
  /** How long a row waits for others before a write (ms). */
  delayMs: number;
  /** Rows kept while Postgres refuses writes; past it the oldest are dropped (counted, logged). */
  maxQueued: number;
  /** Wait before writing again after a failed write (ms). */
  retryMs: number;
}

const DEFAULT_OPTIONS: RetrievalLogWriterOptions = {
  delayMs: 20,
  maxQueued: 50_000,
  retryMs: 1000,
};

/**
 * Writes retrieval log rows behind the reply (docs/adr/136-retrieval-log-written-behind.md):
 * `add` queues a row and returns at once; rows are inserted together `delayMs` after the
 * first of them (at once when a batch is full), one write at a time. A failed write keeps its
 * rows and tries again after `retryMs`; `close` writes what is left before the pool closes.
 */
export class RetrievalLogWriter {
  private readonly queue: RetrievalLogEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<boolean> | null = null;
  /** Rows of the INSERT under way (out of `queue`, not yet written). */
  private inFlight = 0;
  private lastDropWarning = -Infinity;
  private readonly options: RetrievalLogWriterOptions;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Logger,
    options: Partial<RetrievalLogWriterOptions> = {},
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  /** Rows answered but not yet written: queued, or in the INSERT under way. */
  get queued(): number {
    return this.queue.length + this.inFlight;
  }

  add(entry: RetrievalLogEntry): void {
    if (this.queue.length >= this.options.maxQueued) this.drop(1, 'the queue is full');
    this.queue.push(entry);
    retrievalLogQueued.set(this.queue.length);
    this.schedule(this.queue.length >= BATCH_ROWS ? 0 : this.options.delayMs);
  }

  /** Writes every row queued so far; throws when Postgres refuses (the rows stay queued). */
  async flush(): Promise<void> {
    this.cancelTimer();
    while (this.queue.length > 0 || this.writing) {
      if (!(await this.writeOnce())) {
        this.schedule(this.options.retryMs);
        throw new Error('retrieval log rows could not be written');
      }
    }
  }

  /** Writes what is left; rows that still cannot be written are counted and logged as lost. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } catch {
      this.drop(this.queue.length, 'the service stopped while Postgres refused writes');
      // Nothing is left to try again: the retry timer must not hold the process up.
      this.cancelTimer();
    }
  }

  private schedule(ms: number): void {
    if (this.timer) {
      if (ms > 0) return;
      this.cancelTimer();
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.writeOnce().then((ok) => {
        if (this.queue.length > 0) this.schedule(ok ? 0 : this.options.retryMs);
      });
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One batch; waits for a write in progress first. True when nothing failed. */
  private async writeOnce(): Promise<boolean> {
    if (this.writing) return this.writing;
    const rows = this.queue.splice(0, BATCH_ROWS);
    if (rows.length === 0) return true;
    this.inFlight = rows.length;
    this.writing = insertRetrievalLogs(this.pool, rows).then(
      () => {
        this.inFlight = 0;
        retrievalLogWrites.inc({ result: 'ok' });
        return true;
      },
      (error: unknown) => {
        this.inFlight = 0;
        retrievalLogWrites.inc({ result: 'failed' });
        this.logger.warn(
          { err: (error as Error).message, rows: rows.length },
          'retrieval log rows not written; keeping them for the next try',
        );
        this.queue.unshift(...rows);
        const over = this.queue.length - this.options.maxQueued;
        if (over > 0) this.drop(over, 'the queue is full');
        return false;
      },
    );
    try {
      return await this.writing;
    } finally {
      this.writing = null;
      retrievalLogQueued.set(this.queue.length);
    }
  }

  /** Drops the `n` oldest queued rows. */
  private drop(n: number, why: string): void {
    if (n <= 0) return;
    this.queue.splice(0, n);
    retrievalLogDropped.inc(n);
    retrievalLogQueued.set(this.queue.length);
    if (performance.now() - this.lastDropWarning > 30_000) {
      this.lastDropWarning = performance.now();
      this.logger.error({ rows: n, reason: why }, 'retrieval log rows dropped');
    }
  }
}
