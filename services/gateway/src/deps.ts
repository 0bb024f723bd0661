import type { Clock, Config, Logger, Nats, ObjectStore, Pool } from '@reports/platform';

/**
 * Everything the gateway talks to, built by main.ts (or a test) and handed in.
 *
 * Its own module so that route files can name it without importing app.ts, which imports them.
 */
export interface GatewayDeps {
  config: Config;
  logger: Logger;
  pool: Pool;
  nats: Nats;
  objectStore: ObjectStore;
  /** Base URL people reach the gateway at, for links (magic link). */
  publicUrl: string;
  /** The wall clock: tokens, signed links and event times read it (docs/adr/125-one-clock.md). */
  clock: Clock;
}
