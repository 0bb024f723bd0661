import { headers as natsHeaders, type MsgHdrs } from '@nats-io/nats-core';
import { SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import {
  extractTraceContext,
  injectTraceContext,
  tracer,
  type HeaderCarrier,
} from '../telemetry/tracing.js';

/** NATS headers carrying the active trace context (W3C `traceparent`), for a hand-made request. */
export function traceHeaders(): MsgHdrs {
  const h = natsHeaders();
  injectTraceContext(h);
  return h;
}

async function inSpan<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs a NATS request made by hand inside a CLIENT span; pass `traceHeaders()` (called
 * inside `fn`) as the request's headers so the service continues the trace.
 */
export function inClientSpan<T>(subject: string, fn: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(
    `rpc ${subject}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'rpc.system': 'nats', 'messaging.destination.name': subject },
    },
    (span) => inSpan(span, fn),
  );
}

/** Answers a NATS request inside a SERVER span that continues the caller's trace. */
export function inServerSpan<T>(
  subject: string,
  headers: HeaderCarrier | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  const parent = extractTraceContext(headers);
  const span = tracer().startSpan(
    `rpc ${subject}`,
    {
      kind: SpanKind.SERVER,
      attributes: { 'rpc.system': 'nats', 'messaging.destination.name': subject },
    },
    parent,
  );
  return context.with(trace.setSpan(parent, span), () => inSpan(span, fn));
}
