import type { FastifyReply, FastifyRequest } from 'fastify';
import { DeliverPolicy, type Consumer } from '@nats-io/jetstream';
import {
  AppError,
  REPORTS_STREAM,
  evolve,
  initialProjection,
  isTerminal,
  parseEvent,
  reportEventsFilter,
  type RealtimeEvent,
  type TargetProjection,
} from '@reports/contracts';
import type { Nats } from '@reports/platform';

const HEARTBEAT_MS = 15_000;

/**
 * Serves the realtime channel of one report as SSE. It reads the report's
 * subjects from the stream with an ordered consumer from the first event, folds
 * them into each target's status, and writes those after `after` (the
 * Last-Event-ID). It ends once the main file is ready or failed, or when the
 * client goes away.
 */
export async function streamReportEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  nats: Nats,
  opts: { tenantId: string; reportId: string; after: number; open: Set<() => void> },
): Promise<void> {
  let messages: Awaited<ReturnType<Consumer['consume']>>;
  let consumer: Consumer;
  try {
    consumer = await nats.js.consumers.get(REPORTS_STREAM, {
      filter_subjects: reportEventsFilter(opts.tenantId, opts.reportId),
      deliver_policy: DeliverPolicy.All,
    });
    messages = await consumer.consume();
  } catch (error) {
    throw new AppError(
      'service_unavailable',
      'the event stream is unavailable; poll the status endpoint',
      { cause: error },
    );
  }

  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(': report-' + opts.reportId + '\nretry: 3000\n\n');

  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    opts.open.delete(close);
    // The ordered consumer would otherwise stay on the server until its inactivity
    // threshold (5 minutes): one per closed channel (ADR 099).
    void messages
      .close()
      .then(() => consumer.delete())
      .catch(() => undefined);
    res.end();
  };
  request.raw.once('close', close);
  // A hijacked response keeps its connection; the gateway ends it when it shuts down.
  opts.open.add(close);

  const targets = new Map<string, TargetProjection>();
  try {
    for await (const msg of messages) {
      let event;
      try {
        event = parseEvent(msg.json());
      } catch {
        continue; // an event this gateway cannot read is not the client's problem
      }
      const projection = evolve(targets.get(event.target_id) ?? initialProjection(), event);
      targets.set(event.target_id, projection);
      const mainDone = event.target_id === opts.reportId && isTerminal(event.type);
      if (msg.seq > opts.after) {
        const payload: RealtimeEvent = {
          seq: msg.seq,
          type: event.type,
          status: projection.status,
          occurred_at: event.occurred_at,
          target_kind: event.target_kind,
          target_id: event.target_id,
          data: event.data as Record<string, unknown>,
        };
        res.write(`id: ${msg.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(payload)}\n\n`);
      }
      const main = targets.get(opts.reportId);
      const caughtUp = msg.info.pending === 0;
      if (mainDone || (caughtUp && main && (main.status === 'ready' || main.status === 'failed')))
        break;
    }
  } catch (error) {
    request.log.warn({ err: error }, 'realtime channel ended with an error');
  } finally {
    close();
  }
}
