import { chatPriceOf, tokenCostMicrocents } from '@reports/providers';
import type { ChatUsage } from '@reports/contracts';

export { CHAT_PRICES, chatPriceOf } from '@reports/providers';

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
    cost_microcents: tokenCostMicrocents(price, input, output),
    priced: price !== null,
  };
}
