import { DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { REPORTS_STREAM, parseEvent } from '@reports/contracts';
import type { Nats } from '@reports/platform';
import {
  formatEventJson,
  formatEventLine,
  matches,
  tailSubject,
  type TailFilter,
} from './format.js';

export interface TailOptions extends TailFilter {
  json?: boolean;
  /** Stop once the history is printed instead of following new events. */
  follow?: boolean;
  /** Stops following (Ctrl-C in the CLI). */
  signal?: AbortSignal;
}

/**
 * Follows the REPORTS stream with an ordered consumer (no durable state on the
 * server, gone when the command ends) and writes one line per matching event.
 * Resolves with the number of events written.
 */
export async function tailEvents(
  nats: Nats,
  opts: TailOptions,
  write: (line: string) => void,
): Promise<number> {
  const consumer = await nats.js.consumers.get(REPORTS_STREAM, {
    filter_subjects: tailSubject(opts),
    ...(opts.since
      ? { deliver_policy: DeliverPolicy.StartTime, opt_start_time: opts.since.toISOString() }
      : { deliver_policy: opts.follow === false ? DeliverPolicy.All : DeliverPolicy.New }),
  });
  const follow = opts.follow !== false;
  let written = 0;
  const show = (msg: JsMsg) => {
    let event;
    try {
      event = parseEvent(msg.json());
    } catch (error) {
      write(`#${msg.seq} ${msg.subject}: unreadable event (${(error as Error).message})`);
      return;
    }
    if (!matches(event, opts)) return;
    write(
      opts.json ? formatEventJson(event, msg.seq, msg.subject) : formatEventLine(event, msg.seq),
    );
    written += 1;
  };

  if (!follow) {
    // History only: fetch in batches until the consumer has nothing more to give.
    for (;;) {
      const batch = await consumer.fetch({ max_messages: 256, expires: 2_000 });
      let got = 0;
      let caughtUp = false;
      for await (const msg of batch) {
        got += 1;
        show(msg);
        caughtUp = msg.info.pending === 0;
      }
      if (got === 0 || caughtUp || opts.signal?.aborted) return written;
    }
  }

  const messages = await consumer.consume();
  const stop = () => void messages.close();
  opts.signal?.addEventListener('abort', stop, { once: true });
  if (opts.signal?.aborted) stop();
  try {
    for await (const msg of messages) show(msg);
  } finally {
    opts.signal?.removeEventListener('abort', stop);
    stop();
  }
  return written;
}
