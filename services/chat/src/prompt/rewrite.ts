import { QUERY_MAX_CHARS } from '@reports/contracts';
import type { HistoryPair } from '../history/history.js';

/** Characters of each earlier answer shown to the rewrite (the question matters, not the whole answer). */
const ANSWER_CHARS = 600;

export const REWRITE_SYSTEM =
  'You turn the last question of a conversation about a property report into one standalone search query ' +
  'that can be understood without the conversation: resolve pronouns and references ("it", "that room", ' +
  '"the second one") from the earlier messages, keep the language of the question, add nothing else. ' +
  'Answer with the query only, on one line, without quotes.';

/** The prompt that asks a model for the standalone query of `message` after `history`. Pure. */
export function rewritePrompt(history: readonly HistoryPair[], message: string): string {
  const lines = history.flatMap((p) => [
    `User: ${p.user}`,
    `Assistant: ${p.assistant.length > ANSWER_CHARS ? `${p.assistant.slice(0, ANSWER_CHARS)}...` : p.assistant}`,
  ]);
  return ['Conversation:', ...lines, '', `Last question: ${message}`, '', 'Standalone query:'].join(
    '\n',
  );
}

/**
 * The query in a model's answer: first non-empty line, without a `Query:` label or
 * surrounding quotes, within the retrieval limit; `fallback` when nothing is left. Pure.
 */
export function cleanRewrite(text: string, fallback: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return fallback;
  const query = line
    .replace(/^(standalone\s+)?query\s*:\s*/i, '')
    .replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, '')
    .trim()
    .slice(0, QUERY_MAX_CHARS);
  return query.length > 0 ? query : fallback;
}

/**
 * The local answerer writes nothing new, so its rewrite is mechanical: the previous
 * question followed by this one, which keeps what a follow-up refers to findable by
 * the keyword leg. Pure.
 */
export function localRewrite(history: readonly HistoryPair[], message: string): string {
  const previous = history.at(-1)?.user;
  return (previous ? `${previous} ${message}` : message).slice(0, QUERY_MAX_CHARS);
}
