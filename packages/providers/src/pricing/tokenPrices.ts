/** Price of a model in cents per million tokens (integer minor units). */
export interface TokenPrice {
  inputCentsPerMTok: number;
  outputCentsPerMTok: number;
}

/**
 * The listed price of a model: its exact name, else the longest listed prefix (a dated
 * name such as `gpt-4o-mini-2024-07-18` takes the price of `gpt-4o-mini`), else null.
 * Gemini's `models/` prefix is ignored. Pure.
 */
export function lookupTokenPrice(
  table: Readonly<Record<string, TokenPrice>>,
  model: string,
): TokenPrice | null {
  const name = model.toLowerCase().replace(/^models\//, '');
  if (table[name]) return table[name];
  const prefix = Object.keys(table)
    .filter((p) => name.startsWith(p))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix]! : null;
}
