import { pino, type Logger, type LoggerOptions } from 'pino';

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

/** JSON logs with the service name on every line and secrets redacted. */
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
    ...options,
  });
}
