import { trace } from '@opentelemetry/api';
import { pino, type Logger, type LoggerOptions } from 'pino';
import { currentLogContext } from '../telemetry/logContext.js';

export type { Logger } from 'pino';

/** Paths never written to logs, wherever they appear. */
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-admin-hash"]',
  'req.headers["x-partner-signature"]',
  'req.headers.cookie',
  '*.access_token',
  '*.refresh_token',
  '*.password',
  '*.api_key',
];

/**
 * Fields every line gets from the work it is written in: the trace of the active
 * span and the tenant and report of the log context. Keys a child logger already
 * binds are left to it, so no line carries a key twice.
 */
export function correlationFields(bound: Record<string, unknown> = {}): Record<string, string> {
  const fields: Record<string, string> = {};
  const span = trace.getActiveSpan()?.spanContext();
  if (span && span.traceId !== '00000000000000000000000000000000') {
    fields.trace_id = span.traceId;
    fields.span_id = span.spanId;
  }
  const ctx = currentLogContext();
  if (ctx) {
    const tenant = ctx.tenant_id;
    const report = ctx.report_id;
    if (tenant && !('tenant_id' in bound)) fields.tenant_id = tenant;
    if (report && !('report_id' in bound)) fields.report_id = report;
  }
  return fields;
}

/**
 * JSON logs with the service name on every line, secrets redacted, and the
 * trace id, tenant id and report id of the work in progress wherever there is one.
 */
export function createLogger(
  service: string,
  level: string = 'info',
  options: LoggerOptions = {},
): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin(_merge, _level, logger) {
      const ctx = currentLogContext();
      // Child loggers bind tenant_id/report_id themselves; only look when it could matter.
      const bound = ctx ? (logger as Logger).bindings() : {};
      return correlationFields(bound);
    },
    ...options,
  });
}
