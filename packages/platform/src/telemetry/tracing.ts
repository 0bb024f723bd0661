import { context, propagation, trace, type Context, type Tracer } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** Name of the tracer every span of ours is made with. */
export const TRACER_NAME = 'property-reports';

export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

export interface TracingOptions {
  /** `service.name` of every span this process makes. */
  serviceName: string;
  /**
   * OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). The exporter itself reads the
   * standard `OTEL_EXPORTER_OTLP_*` variables (headers, timeout, protocol).
   */
  endpoint?: string | undefined;
  /** An exporter to use instead of OTLP (a test's InMemorySpanExporter); spans are sent at once. */
  exporter?: SpanExporter;
}

export interface Tracing {
  /** True when spans go somewhere; false means the no-op tracer. */
  enabled: boolean;
  /** Sends what is buffered. */
  flush(): Promise<void>;
  /** Flushes and stops; later spans are dropped. */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { enabled: false, flush: async () => {}, shutdown: async () => {} };
let active: Tracing | null = null;

/**
 * Starts tracing for this process when an exporter or an OTLP endpoint is given,
 * and registers the official instrumentations: http (incoming and outgoing),
 * undici (fetch, which the provider SDKs use) and pg. Without either, nothing
 * is registered and every span is the API's no-op: tracing costs nothing.
 *
 * The instrumentations patch modules as they are loaded, so this must run
 * before `pg` or `node:http` users are imported: services call it from the
 * first line of `main.ts` through `@reports/platform/telemetry`.
 */
export function startTracing(opts: TracingOptions): Tracing {
  if (active) return active;
  if (!opts.exporter && !opts.endpoint) {
    active = OFF;
    return OFF;
  }
  const processor: SpanProcessor = opts.exporter
    ? new SimpleSpanProcessor(opts.exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter(otlpTracesUrl(opts.endpoint!)));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: opts.serviceName }),
    spanProcessors: [processor],
  });
  // Also installs the W3C trace-context propagator used for NATS headers.
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes would drown the traces operators look for.
        ignoreIncomingRequestHook: (req) =>
          /^\/(metrics|healthz|readyz|health)(\?|$)/.test(req.url ?? ''),
      }),
      new UndiciInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  active = {
    enabled: true,
    flush: () => provider.forceFlush(),
    async shutdown() {
      unregister();
      await provider.shutdown();
    },
  };
  return active;
}

/** The tracing this process started, or the no-op one. */
export function currentTracing(): Tracing {
  return active ?? OFF;
}

/**
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is a base URL: the traces path is appended, as
 * the specification says (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` would be used as is).
 */
export function otlpTracesUrl(endpoint: string): { url: string } {
  const explicit = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (explicit) return { url: explicit };
  return { url: `${endpoint.replace(/\/+$/, '')}/v1/traces` };
}

/** Something that holds string headers: NATS MsgHdrs fits. */
export interface HeaderCarrier {
  get(key: string): string;
  set(key: string, value: string): void;
  has?(key: string): boolean;
}

/** Writes the W3C `traceparent` (and `tracestate`) of `ctx` into message headers. */
export function injectTraceContext(carrier: HeaderCarrier, ctx: Context = context.active()): void {
  propagation.inject(ctx, carrier, {
    set: (c, key, value) => c.set(key, value),
  });
}

/** The context carried by message headers (the root context when they carry none). */
export function extractTraceContext(carrier: HeaderCarrier | undefined): Context {
  if (!carrier) return context.active();
  return propagation.extract(context.active(), carrier, {
    get: (c, key) => {
      const value = c.get(key);
      return value === '' ? undefined : value;
    },
    keys: () => ['traceparent', 'tracestate'],
  });
}
