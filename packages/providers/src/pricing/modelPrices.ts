import { lookupTokenPrice, type TokenPrice } from './tokenPrices.js';

/**
 * The model price tables, public list prices when written (docs/adr/017, docs/adr/041), and
 * the one rule costs follow (docs/adr/061): tokens times cents per million tokens is kept
 * exact, in millionths of a cent (`tokenCostMicrocents`); whole cents are made once, rounding
 * up, only where a cost is stored as whole cents (`microcentsToCents`). A dated model name
 * (`gpt-4o-mini-2024-07-18`) takes the price of its longest listed prefix. Models not listed
 * (self-hosted vLLM or Ollama) cost 0 and are reported unpriced, so an operator sees the gap
 * instead of a made-up number.
 */

/** Figure annotation (vision) models. */
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

/** Chat answer (and query rewrite) models. */
export const CHAT_PRICES: Readonly<Record<string, TokenPrice>> = {
  // The local answerer calls nothing: free, and priced so.
  'local-extractive': { inputCentsPerMTok: 0, outputCentsPerMTok: 0 },
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
  'mistral-large': { inputCentsPerMTok: 200, outputCentsPerMTok: 600 },
  'ministral-8b': { inputCentsPerMTok: 10, outputCentsPerMTok: 10 },
  'open-mistral-nemo': { inputCentsPerMTok: 15, outputCentsPerMTok: 15 },
};

/** The listed price of a vision model, or null. Pure. */
export function visionPriceOf(model: string): TokenPrice | null {
  return lookupTokenPrice(VISION_PRICES, model);
}

/** The listed price of a chat model, or null. Pure. */
export function chatPriceOf(model: string): TokenPrice | null {
  return lookupTokenPrice(CHAT_PRICES, model);
}

/** Exact cost of some tokens, in millionths of a cent (0 when unpriced). Pure. */
export function tokenCostMicrocents(
  price: TokenPrice | null,
  inputTokens: number,
  outputTokens: number,
): number {
  if (!price) return 0;
  return inputTokens * price.inputCentsPerMTok + outputTokens * price.outputCentsPerMTok;
}

/** Whole cents of an exact cost, rounded up: the only rounding of a model cost. Pure. */
export function microcentsToCents(microcents: number): number {
  return Math.ceil(microcents / 1_000_000);
}
