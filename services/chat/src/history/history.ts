/** A stored message as the history reads it. */
export interface StoredTurnMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** One earlier exchange: a question and the answer given to it. */
export interface HistoryPair {
  user: string;
  assistant: string;
}

/**
 * The last `pairs` user/assistant exchanges of a conversation, oldest first (spec:
 * last 3 message pairs). `messages` are the conversation's messages before the
 * current one, in order. A question without an answer (the turn failed before one
 * was stored), or whose answer is empty (cancelled before any text), is no exchange
 * and is skipped; an answer cut short is kept as it was shown. Pure.
 */
export function historyPairs(messages: readonly StoredTurnMessage[], pairs: number): HistoryPair[] {
  const out: HistoryPair[] = [];
  for (let i = 0; i + 1 < messages.length; i++) {
    const q = messages[i]!;
    const a = messages[i + 1]!;
    if (q.role === 'user' && a.role === 'assistant') {
      if (a.content.trim().length > 0) out.push({ user: q.content, assistant: a.content });
      i += 1;
    }
  }
  return out.slice(-pairs);
}
