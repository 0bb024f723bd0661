import type { NatsConnection } from '@nats-io/nats-core';
import { AppError } from '@reports/contracts';

/**
 * How long a caller waits for a lost NATS connection to come back before answering 503: long
 * enough to ride out a server restart or a cluster leader change, far shorter than the request
 * timeouts (30 s for retrieval), which a request sent into a reconnect buffer would otherwise wait
 * out. See docs/adr/120-fail-fast-without-nats.md.
 */
export const NATS_RECONNECT_GRACE_MS = 2_000;

interface Liveness {
  connected: boolean;
  /** Resolved at the next reconnect (and replaced by a fresh promise at each disconnect). */
  reconnected: Promise<void>;
  resolveReconnected: () => void;
}

const tracked = new WeakMap<NatsConnection, Liveness>();

function pending(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Follows the connection's status events so callers can tell at once whether it is up. Called by
 * `connectNats` right after connecting; later calls for the same connection reuse the first.
 */
export function trackConnection(nc: NatsConnection): void {
  if (tracked.has(nc)) return;
  const first = pending();
  const state: Liveness = {
    connected: !nc.isClosed(),
    reconnected: first.promise,
    resolveReconnected: first.resolve,
  };
  tracked.set(nc, state);
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' && state.connected) {
        state.connected = false;
        const next = pending();
        state.reconnected = next.promise;
        state.resolveReconnected = next.resolve;
      } else if (status.type === 'reconnect') {
        state.connected = true;
        state.resolveReconnected();
      }
    }
  })().catch(() => undefined);
  void nc.closed().then(() => {
    state.connected = false;
  });
}

/** True unless the connection is closed or known to be between a disconnect and a reconnect. */
export function isNatsConnected(nc: NatsConnection): boolean {
  if (nc.isClosed()) return false;
  return tracked.get(nc)?.connected ?? true;
}

/**
 * Returns at once while the connection is up; while it is down, waits up to `graceMs` for the
 * reconnect and otherwise throws 503 `service_unavailable` naming `what`, so a request is not
 * queued behind a connection that is not coming back soon.
 */
export async function awaitNatsConnected(
  nc: NatsConnection,
  what: string,
  graceMs: number = NATS_RECONNECT_GRACE_MS,
): Promise<void> {
  const unavailable = (): AppError =>
    new AppError('service_unavailable', `${what} is unavailable: no connection to the message bus`);
  if (nc.isClosed()) throw unavailable();
  const state = tracked.get(nc);
  if (!state || state.connected) return;
  let timer: NodeJS.Timeout | undefined;
  const back = await Promise.race([
    state.reconnected.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
  if (!back || nc.isClosed()) throw unavailable();
}
