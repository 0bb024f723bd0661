import { localAnswer } from './localAnswer.js';
import type { ChatModel, ChatStreamEvent, ChatStreamRequest } from './chatModel.js';

/** Model id of the local answerer (design.md section 5: local models are named `local-*`). */
export const LOCAL_EXTRACTIVE_MODEL = 'local-extractive';

/** Cuts text into pieces of about `size` characters at spaces, as a model streams tokens. Pure. */
export function streamPieces(text: string, size = 24): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const part of text.split(/(?<=\s)/)) {
    current += part;
    if (current.length >= size) {
      pieces.push(current);
      current = '';
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/**
 * The local extractive answerer: no key, no network. It states the facts of the turn's
 * documents that answer the question, each with its citation (`localAnswer`), and writes
 * nothing of its own, so it has no `writer` (no query rewrite, no HyDE).
 */
export class LocalExtractiveModel implements ChatModel {
  readonly provider = 'local' as const;
  readonly model = LOCAL_EXTRACTIVE_MODEL;
  readonly extractive = true;
  readonly writer = null;

  async *stream(request: ChatStreamRequest): AsyncIterable<ChatStreamEvent> {
    const answer = localAnswer(request.documents, request.query);
    for (const text of streamPieces(answer)) {
      // Give the event loop a turn between pieces, as a network stream would, so a cancel lands.
      await new Promise((resolve) => setImmediate(resolve));
      if (request.signal?.aborted) return;
      yield { type: 'delta', text };
    }
    yield { type: 'done', finishReason: 'stop', usage: null, model: this.model };
  }
}
