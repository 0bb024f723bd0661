import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { trackConnection } from './liveness.js';

export type { NatsConnection } from '@nats-io/transport-node';
export type { JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';

export interface Nats {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

/** Connects with unlimited reconnects: a NATS restart is a pause, not a crash. */
export async function connectNats(url: string, name: string): Promise<Nats> {
  const nc = await connect({
    servers: url.split(',').map((s) => s.trim()),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // No stack captured at every request for the error it might raise: about a tenth of a
    // millisecond per request/reply saved; our RPC errors name their operation instead.
    noAsyncTraces: true,
  });
  trackConnection(nc);
  const jsm = await jetstreamManager(nc);
  return { nc, js: jetstream(nc), jsm };
}

export interface ConnectRetryOptions {
  /** First pause after a failed attempt; it doubles up to maxDelayMs. Default 250 ms. */
  initialDelayMs?: number;
  maxDelayMs: number;
  /** Told about every failed attempt and the pause before the next. */
  onRetry(info: { attempt: number; delay_ms: number; err: string }): void;
  /** Gives up when aborted (the service is being stopped while still starting). */
  signal?: AbortSignal;
}

/**
 * Connects to NATS and runs `setup` (provisioning), retrying both with exponential backoff
 * until they succeed: a service started while NATS is down, or while a JetStream cluster
 * has no leader yet, waits for it instead of exiting.
 */
export async function connectNatsWithRetry(
  url: string,
  name: string,
  setup: (nats: Nats) => Promise<void>,
  opts: ConnectRetryOptions,
): Promise<Nats> {
  let delay = opts.initialDelayMs ?? 250;
  for (let attempt = 1; ; attempt += 1) {
    opts.signal?.throwIfAborted();
    let nats: Nats | undefined;
    try {
      nats = await connectNats(url, name);
      await setup(nats);
      return nats;
    } catch (error) {
      await nats?.nc.close().catch(() => undefined);
      const err = error instanceof Error ? error.message : String(error);
      opts.onRetry({ attempt, delay_ms: delay, err });
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, opts.maxDelayMs);
    }
  }
}

export interface StreamSpec {
  name: string;
  subjects: string[];
  replicas: number;
  /** Window in which a repeated Nats-Msg-Id is dropped. */
  duplicateWindowMs: number;
  maxAgeMs?: number;
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === 10059 || error.code === 10014 || /not found/i.test(error.message))
  );
}

/** Creates the stream, or updates it to the spec when it exists. Safe at every start-up. */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec): Promise<void> {
  const config = {
    name: spec.name,
    subjects: spec.subjects,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    num_replicas: spec.replicas,
    duplicate_window: nanos(spec.duplicateWindowMs),
    max_age: spec.maxAgeMs ? nanos(spec.maxAgeMs) : 0,
  };
  try {
    await jsm.streams.info(spec.name);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      await jsm.streams.add(config);
      return;
    } catch (addError) {
      // Another replica created it between our info and add.
      if (!/already in use|exists/i.test((addError as Error).message)) throw addError;
    }
  }
  await jsm.streams.update(spec.name, config);
}

export interface DurableSpec {
  stream: string;
  durable: string;
  filterSubject: string;
  ackWaitMs: number;
  maxDeliver: number;
  maxAckPending: number;
}

/** Creates or updates a durable pull consumer with explicit acks. */
export async function ensureDurableConsumer(
  jsm: JetStreamManager,
  spec: DurableSpec,
): Promise<void> {
  const config = {
    durable_name: spec.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: spec.filterSubject,
    ack_wait: nanos(spec.ackWaitMs),
    max_deliver: spec.maxDeliver,
    max_ack_pending: spec.maxAckPending,
  };
  try {
    await jsm.consumers.info(spec.stream, spec.durable);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      await jsm.consumers.add(spec.stream, config);
      return;
    } catch (addError) {
      if (!/already in use|exists/i.test((addError as Error).message)) throw addError;
    }
  }
  const { durable_name: _name, deliver_policy: _policy, ...updatable } = config;
  await jsm.consumers.update(spec.stream, spec.durable, updatable);
}
