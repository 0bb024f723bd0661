import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { providerDuration, recordProviderUsage, type ProviderUsage } from './metrics.js';
import { tracer } from './tracing.js';

export interface ProviderCall {
  provider: string;
  model: string;
  /** What is asked of the provider: `embed`, `annotate`, `ocr`, `chat`, `rerank`... */
  operation: string;
}

/**
 * Runs one model provider call inside a client span, records its latency by
 * outcome, and the units and cost `usageOf` reads from the result. Remote calls
 * made inside it over fetch get their own child spans from the undici
 * instrumentation.
 */
export async function observeProviderCall<T>(
  call: ProviderCall,
  fn: () => Promise<T>,
  usageOf?: (result: T) => Omit<ProviderUsage, 'provider' | 'model'> | undefined,
): Promise<T> {
  const started = performance.now();
  return tracer().startActiveSpan(
    `${call.provider} ${call.operation}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.system': call.provider,
        'gen_ai.request.model': call.model,
        'gen_ai.operation.name': call.operation,
      },
    },
    async (span) => {
      let outcome = 'ok';
      try {
        const result = await fn();
        const usage = usageOf?.(result);
        if (usage) {
          recordProviderUsage({ ...usage, provider: call.provider, model: call.model });
          for (const [kind, n] of Object.entries(usage.units ?? {}))
            span.setAttribute(`gen_ai.usage.${kind}`, n);
          if (usage.cost_cents !== undefined) span.setAttribute('cost_cents', usage.cost_cents);
        }
        return result;
      } catch (error) {
        outcome = 'error';
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        providerDuration.observe({ ...call, outcome }, (performance.now() - started) / 1000);
        span.end();
      }
    },
  );
}
