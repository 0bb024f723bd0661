/**
 * The one source of wall-clock time (docs/adr/125-one-clock.md). Code that stamps or compares
 * times (token issue and expiry, signed links, event and stage timestamps) takes a `Clock` from
 * its dependencies instead of reading `Date.now()`, so a test can set the time; elapsed time
 * (timeouts, latencies, heartbeats) is measured with the monotonic `performance.now()` instead.
 */
export interface Clock {
  /** The current time. */
  now(): Date;
  /** The current time in milliseconds since the epoch. */
  nowMs(): number;
  /** The current time in whole seconds since the epoch (JWT `iat`/`exp`, signed links). */
  nowSeconds(): number;
}

/** The machine's clock. */
export const systemClock: Clock = {
  now: () => new Date(),
  nowMs: () => Date.now(),
  nowSeconds: () => Math.floor(Date.now() / 1000),
};

/** A clock that stands still until moved: for tests that need a given time. */
export interface ManualClock extends Clock {
  /** Moves the clock forward (or back, with a negative amount). */
  advance(ms: number): void;
  set(at: Date | number): void;
}

export function manualClock(start: Date | number): ManualClock {
  let ms = typeof start === 'number' ? start : start.getTime();
  return {
    now: () => new Date(ms),
    nowMs: () => ms,
    nowSeconds: () => Math.floor(ms / 1000),
    advance(by) {
      ms += by;
    },
    set(at) {
      ms = typeof at === 'number' ? at : at.getTime();
    },
  };
}
