import { COMMANDS_STREAM, COMMANDS_SUBJECTS } from '@reports/contracts';
import type { JetStreamManager } from '@nats-io/jetstream';
import { ensureStream } from './connection.js';

/**
 * Creates or updates the COMMANDS stream: requests that are not facts yet (re-embed...), on
 * `commands.<kind>.<tenant_id>.<report_id>`, apart from the REPORTS stream of events so that
 * replaying the event history never re-runs an operator's command. Kept a week.
 */
export async function provisionCommandsStream(
  jsm: JetStreamManager,
  replicas: number,
): Promise<void> {
  await ensureStream(jsm, {
    name: COMMANDS_STREAM,
    subjects: [COMMANDS_SUBJECTS],
    replicas,
    duplicateWindowMs: 2 * 60_000,
    maxAgeMs: 7 * 24 * 3_600_000,
  });
}
