import type { ScopeType } from '@reports/contracts';

/** Spec rule 4: HyDE when the query has fewer than this many words (or the scope is multi_report). */
export const HYDE_MAX_WORDS_EXCLUSIVE = 4;

/** Words of a query: runs of letters or digits (punctuation alone is not a word). */
export function countWords(query: string): number {
  return query.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Whether the spec asks for a hypothetical document for this query. Pure. */
export function wantsHyde(query: string, scopeType: ScopeType): boolean {
  return scopeType === 'multi_report' || countWords(query) < HYDE_MAX_WORDS_EXCLUSIVE;
}

export const HYDE_SYSTEM_PROMPT =
  'You write short passages as they would appear in a professional property survey or inspection report. ' +
  'Answer with the passage only: no preamble, no headings, no lists.';

/** The instruction for the hypothetical passage. */
export function hydePrompt(query: string): string {
  return `Write one paragraph (60 to 120 words) of a property report that would answer or discuss: "${query.trim()}"`;
}

/**
 * The text the vector leg embeds when a model wrote a passage: the query followed by the passage,
 * so a passage that drifted still carries the user's own words. The keyword leg always uses the
 * query as typed (the passage's invented words would only add noise to BM25).
 */
export function hydeEmbeddingText(query: string, passage: string): string {
  return `${query.trim()}\n\n${passage.trim()}`;
}
