import { lookupTokenPrice, type TokenPrice } from '@reports/providers';
import type { ModelUsage } from './annotator.js';

/**
 * Public list prices when written (docs/adr/017). A dated model name
 * (`gpt-4o-mini-2024-07-18`) takes the price of its longest listed prefix.
 * Models not listed (self-hosted vLLM or Ollama) cost 0 and are reported as
 * unpriced, so an operator sees the gap instead of a made-up number.
 */
export const VISION_PRICES: Readonly<Record<string, TokenPrice>> = {
  'gpt-4o-mini': { inputCentsPerMTok: 15, outputCentsPerMTok: 60 },
  'gpt-4o': { inputCentsPerMTok: 250, outputCentsPerMTok: 1000 },
  'gpt-4.1-nano': { inputCentsPerMTok: 10, outputCentsPerMTok: 40 },
  'gpt-4.1-mini': { inputCentsPerMTok: 40, outputCentsPerMTok: 160 },
  'gpt-4.1': { inputCentsPerMTok: 200, outputCentsPerMTok: 800 },
  'gemini-2.0-flash': { inputCentsPerMTok: 10, outputCentsPerMTok: 40 },
  'gemini-2.5-flash': { inputCentsPerMTok: 30, outputCentsPerMTok: 250 },
  'gemini-2.5-pro': { inputCentsPerMTok: 125, outputCentsPerMTok: 1000 },
  'mistral-small': { inputCentsPerMTok: 10, outputCentsPerMTok: 30 },
  'mistral-medium': { inputCentsPerMTok: 40, outputCentsPerMTok: 200 },
  'pixtral-12b': { inputCentsPerMTok: 15, outputCentsPerMTok: 15 },
  'pixtral-large': { inputCentsPerMTok: 200, outputCentsPerMTok: 600 },
};

/** The listed price of a model (exact name, else the longest listed prefix), or null. */
export function priceOf(model: string): TokenPrice | null {
  return lookupTokenPrice(VISION_PRICES, model);
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
    if (!this.price) return;
    this.microCents +=
      usage.input_tokens * this.price.inputCentsPerMTok +
      usage.output_tokens * this.price.outputCentsPerMTok;
  }

  /** Whole cents, rounded up. */
  get cents(): number {
    return Math.ceil(this.microCents / 1_000_000);
  }
}
