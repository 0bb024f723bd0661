import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus registry and every metric the platform records. One
 * registry per process: a service serves it on `/metrics` (the gateway on its own
 * port, stage services on their operations port).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** HTTP latency by route template (never the raw URL: ids would explode the series). */
export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency by method, route template and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});

/** One observation per stage attempt, labelled with how it ended. */
export const stageDuration = new Histogram({
  name: 'stage_duration_seconds',
  help: 'Duration of one stage attempt by stage and outcome (done, skipped, retry, failed)',
  labelNames: ['stage', 'outcome'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});

/** Targets a stage gave up on, by where the give-up came from. */
export const stageFailures = new Counter({
  name: 'stage_failures_total',
  help: 'Targets failed by a stage, by source: handler (the stage said failed or ran out of retries) or max_deliveries (JetStream advisory: the worker never finished)',
  labelNames: ['stage', 'source'] as const,
  registers: [metricsRegistry],
});

/** Messages settled by a consumer loop, by how (ack, nak, term). */
export const consumerMessages = new Counter({
  name: 'consumer_messages_total',
  help: 'Messages settled by a consumer loop, by durable and settlement (ack, nak, term)',
  labelNames: ['consumer', 'settlement'] as const,
  registers: [metricsRegistry],
});

/** Sampled from JetStream consumer info. */
export const consumerPending = new Gauge({
  name: 'consumer_pending_messages',
  help: 'Messages in the stream not yet delivered to the consumer (lag)',
  labelNames: ['stream', 'consumer'] as const,
  registers: [metricsRegistry],
});
export const consumerAckPending = new Gauge({
  name: 'consumer_ack_pending_messages',
  help: 'Messages delivered and not yet acknowledged (in flight)',
  labelNames: ['stream', 'consumer'] as const,
  registers: [metricsRegistry],
});
export const consumerRedelivered = new Gauge({
  name: 'consumer_redelivered_messages',
  help: 'Messages delivered more than once and not yet acknowledged',
  labelNames: ['stream', 'consumer'] as const,
  registers: [metricsRegistry],
});

export const providerDuration = new Histogram({
  name: 'provider_request_duration_seconds',
  help: 'Latency of model provider calls by provider, model, operation and outcome',
  labelNames: ['provider', 'model', 'operation', 'outcome'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});
export const providerTokens = new Counter({
  name: 'provider_tokens_total',
  help: 'Tokens (or other billed units) used at model providers, by provider, model and kind',
  labelNames: ['provider', 'model', 'kind'] as const,
  registers: [metricsRegistry],
});
export const providerCost = new Counter({
  name: 'provider_cost_cents_total',
  help: 'Cost of model provider calls in minor currency units',
  labelNames: ['provider', 'model'] as const,
  registers: [metricsRegistry],
});

/** Usage of one provider call or one stage attempt. */
export interface ProviderUsage {
  provider: string;
  model: string;
  /** Units by kind: `input_tokens`, `output_tokens`, `pages`... */
  units?: Record<string, number> | undefined;
  cost_cents?: number | undefined;
}

/** Adds a call's units and cost to the provider counters. */
export function recordProviderUsage(usage: ProviderUsage): void {
  for (const [kind, n] of Object.entries(usage.units ?? {})) {
    if (Number.isFinite(n) && n > 0)
      providerTokens.inc({ provider: usage.provider, model: usage.model, kind }, n);
  }
  if (usage.cost_cents && usage.cost_cents > 0) {
    providerCost.inc({ provider: usage.provider, model: usage.model }, usage.cost_cents);
  }
}

/** Prometheus text of the registry. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** The retrieval service's in-memory folder index (docs/adr/135-folder-index-in-memory.md). */
export const folderIndexBytes = new Gauge({
  name: 'retrieval_folder_index_bytes',
  help: 'Memory held by the folders the retrieval service keeps in memory (vectors, postings, chunk rows)',
  registers: [metricsRegistry],
});
export const folderIndexFolders = new Gauge({
  name: 'retrieval_folder_index_folders',
  help: 'Report folders held in memory by the retrieval service',
  registers: [metricsRegistry],
});
export const folderIndexWarmSeconds = new Histogram({
  name: 'retrieval_folder_index_warm_seconds',
  help: 'Time to copy one folder out of Postgres into memory (first use, or after its chunks changed)',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});
export const folderIndexLookups = new Counter({
  name: 'retrieval_folder_index_lookups_total',
  help: 'Folder lookups of queries: hit (in memory and current), load (not in memory), stale (its chunks changed), oversize (larger than the budget: served by SQL)',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});
export const folderIndexEvictions = new Counter({
  name: 'retrieval_folder_index_evictions_total',
  help: 'Folders dropped from memory to stay within RETRIEVAL_MEMORY_BUDGET_MB (least recently used first)',
  registers: [metricsRegistry],
});

/** Retrieval log rows written behind the reply (docs/adr/136-retrieval-log-written-behind.md). */
export const retrievalLogQueued = new Gauge({
  name: 'retrieval_log_queued_rows',
  help: 'Retrieval log rows answered but not yet written to Postgres',
  registers: [metricsRegistry],
});
export const retrievalLogWrites = new Counter({
  name: 'retrieval_log_writes_total',
  help: 'Batched inserts of retrieval log rows: ok, or failed (the rows are kept and written later)',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});
export const retrievalLogDropped = new Counter({
  name: 'retrieval_log_dropped_rows_total',
  help: 'Retrieval log rows given up: the queue was full while Postgres refused writes, or the process stopped before they could be written',
  registers: [metricsRegistry],
});
