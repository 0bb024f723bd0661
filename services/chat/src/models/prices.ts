import { lookupTokenPrice, type TokenPrice } from '@reports/providers';
import type { ChatUsage } from '@reports/contracts';

/**
 * Public list prices when written (docs/adr/041). A dated model name
 * (`gpt-4o-mini-2024-07-18`) takes the price of its longest listed prefix. Models not
 * listed (self-hosted vLLM or Ollama) cost 0 and are marked
 * unpriced, so an operator sees the gap instead of a made-up number.
 */
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

/** The listed price of a model (exact name, else the longest listed prefix), or null. Pure. */
export function chatPriceOf(model: string): TokenPrice | null {
  return lookupTokenPrice(CHAT_PRICES, model);
}

/** Tokens of one call, as the provider reported them (null: it did not). */
export interface CallTokens {
  inputTokens: number;
  outputTokens: number;
}

/**
 * Usage and cost of one answer: the calls it made (query rewrite, the answer) added
 * up. Cost in millionths of a cent: tokens times cents per million tokens is exact in
 * that unit, so nothing is rounded per message. Pure.
 */
export function usageOf(model: string, calls: ReadonlyArray<CallTokens | null>): ChatUsage {
  const reported = calls.filter((c): c is CallTokens => c !== null);
  const price = chatPriceOf(model);
  const input = reported.reduce((n, c) => n + c.inputTokens, 0);
  const output = reported.reduce((n, c) => n + c.outputTokens, 0);
  return {
    input_tokens: reported.length > 0 ? input : null,
    output_tokens: reported.length > 0 ? output : null,
    cost_microcents: price
      ? input * price.inputCentsPerMTok + output * price.outputCentsPerMTok
      : 0,
    priced: price !== null,
  };
}
