import type { Embedder } from '@reports/providers';
import { observeProviderCall } from '@reports/platform';

/**
 * The same embedder, each `embed` call inside a provider span with its latency recorded
 * (`provider_request_duration_seconds`). Tokens and cost are counted from the stage's usage.
 * A wrapper, not a subclass: whatever else the embedder has is reached through its prototype.
 */
export function observedEmbedder(embedder: Embedder): Embedder {
  const observed = Object.create(embedder) as Embedder;
  observed.embed = (texts, signal) =>
    observeProviderCall(
      { provider: embedder.provider, model: embedder.model, operation: 'embed' },
      () => embedder.embed(texts, signal),
    );
  return observed;
}
