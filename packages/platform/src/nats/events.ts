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
import { ensureStream } from './connection.js';

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
): EventOf<K> {
  return {
    id: randomUUID(),
    type,
    version: EVENT_VERSION,
    occurred_at: new Date().toISOString(),
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
  const ack = await js.publish(subject, JSON.stringify(event), { msgID: msgId, timeout: 10_000 });
  return { seq: ack.seq, duplicate: ack.duplicate };
}
