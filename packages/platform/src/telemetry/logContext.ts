import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a piece of work is for: set by the consumer loop around each message and by
 * the gateway around each request, read by the logger's mixin so every line
 * written meanwhile carries them. Values may be getters (the gateway learns the
 * tenant only once the token is verified).
 */
export interface LogContext {
  tenant_id?: string | undefined;
  report_id?: string | undefined;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with `ctx` as the log context of everything it does. */
export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The log context of the running work, if any. */
export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

/** Tenant and report ids from a REPORTS subject (`reports.<tenant>.<report>.<type>`). */
export function logContextFromSubject(subject: string): LogContext {
  const parts = subject.split('.');
  if (parts.length === 4 && parts[0] === 'reports') {
    return { tenant_id: parts[1], report_id: parts[2] };
  }
  return {};
}
