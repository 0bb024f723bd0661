import {
  microcentsToCents,
  tokenCostMicrocents,
  visionPriceOf,
  type TokenPrice,
} from '@reports/providers';
import type { ModelUsage } from './annotator.js';

/** The listed price of a vision model (exact name, else the longest listed prefix), or null. */
export function priceOf(model: string): TokenPrice | null {
  return visionPriceOf(model);
}

/**
 * Adds up token usage and turns it into whole cents once, at the end: many
 * figures at a fraction of a cent each must not round to 0 one by one.
 */
export class CostMeter {
  private microCents = 0;
  inputTokens = 0;
  outputTokens = 0;
  readonly priced: boolean;

  constructor(private readonly price: TokenPrice | null) {
    this.priced = price !== null;
  }

  add(usage: ModelUsage): void {
    this.inputTokens += usage.input_tokens;
    this.outputTokens += usage.output_tokens;
    this.microCents += tokenCostMicrocents(this.price, usage.input_tokens, usage.output_tokens);
  }

  /** Whole cents, rounded up. */
  get cents(): number {
    return microcentsToCents(this.microCents);
  }
}
