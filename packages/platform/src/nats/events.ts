import { systemClock, type Clock } from '../time/clock.js';
import { randomUUID } from 'node:crypto';
import {
  EVENT_VERSION,
  REPORTS_STREAM,
  REPORTS_SUBJECTS,
  reportEventSubject,
  type EventOf,
  type EventType,
  type PipelineEvent,
  type TargetKind,
} from '@reports/contracts';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/nats-core';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ensureStream } from './connection.js';
import { injectTraceContext, tracer } from '../telemetry/tracing.js';

/** Where an event sits in the pipeline: copied from the event that caused it. */
export interface EventOrigin {
  tenant_id: string;
  report_id: string;
  target_kind: TargetKind;
  target_id: string;
  generation: number;
  correlation_id: string;
  causation_id: string | null;
}

/** The origin of events caused by `cause`. */
export function causedBy(cause: PipelineEvent): EventOrigin {
  return {
    tenant_id: cause.tenant_id,
    report_id: cause.report_id,
    target_kind: cause.target_kind,
    target_id: cause.target_id,
    generation: cause.generation,
    correlation_id: cause.correlation_id,
    causation_id: cause.id,
  };
}

export function newEvent<K extends EventType>(
  type: K,
  origin: EventOrigin,
  data: EventOf<K>['data'],
  clock: Clock = systemClock,
): EventOf<K> {
  return {
    id: randomUUID(),
    type,
    version: EVENT_VERSION,
    occurred_at: clock.now().toISOString(),
    ...origin,
    data,
  } as EventOf<K>;
}

/** Creates or updates the REPORTS stream (file storage, 2 minute dedupe window). */
export async function provisionReportsStream(
  jsm: JetStreamManager,
  replicas: number,
): Promise<void> {
  await ensureStream(jsm, {
    name: REPORTS_STREAM,
    subjects: [REPORTS_SUBJECTS],
    replicas,
    duplicateWindowMs: 5 * 60_000,
  });
}

export interface Published {
  seq: number;
  duplicate: boolean;
}

/**
 * Publishes with `Nats-Msg-Id = msgId`: the same id within the dedupe window is
 * stored once, which is what makes a stage's rerun after a crash harmless.
 */
export async function publishEvent(
  js: JetStreamClient,
  event: PipelineEvent,
  msgId: string,
): Promise<Published> {
  const subject = reportEventSubject(event.tenant_id, event.report_id, event.type);
  // A producer span whose context travels in the message's `traceparent` header:
  // the consumer's span continues this trace (NATS has no official instrumentation).
  return tracer().startActiveSpan(
    `publish ${event.type}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'send',
        'messaging.destination.name': subject,
        'messaging.message.id': msgId,
        'event.type': event.type,
        'tenant.id': event.tenant_id,
        'report.id': event.report_id,
      },
    },
    async (span) => {
      try {
        const h = natsHeaders();
        injectTraceContext(h);
        const ack = await js.publish(subject, JSON.stringify(event), {
          msgID: msgId,
          timeout: 10_000,
          headers: h,
        });
        span.setAttribute('messaging.nats.stream_sequence', ack.seq);
        span.setAttribute('messaging.nats.duplicate', ack.duplicate);
        return { seq: ack.seq, duplicate: ack.duplicate };
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
