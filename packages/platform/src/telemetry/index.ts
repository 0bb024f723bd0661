/**
 * Entry point `@reports/platform/telemetry`: imports nothing that loads `pg` or the
 * NATS client, so a service's `main.ts` can start tracing before those are loaded
 * (the instrumentations patch modules as they load).
 */
import { startTracing, type Tracing } from './tracing.js';

export { startTracing, currentTracing, type Tracing, type TracingOptions } from './tracing.js';

/**
 * Starts tracing from the environment: OTLP to `OTEL_EXPORTER_OTLP_ENDPOINT` when it
 * is set, off otherwise. Call it first thing in `main.ts`, then import the rest.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return startTracing({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || serviceName,
    endpoint: endpoint || undefined,
  });
}
