import type { FinishReason } from '@reports/contracts';
import {
  ChatModelError,
  type ChatModel,
  type ChatStreamRequest,
  type TokenUsage,
} from '@reports/providers';
import { CanaryFilter } from '../prompt/canary.js';

/**
 * Yields what `source` yields, but gives up when it yields nothing for `ms`: `onIdle`
 * is called (it aborts the model call) and a `timeout` ChatModelError is thrown. A
 * slow first token and a stream that stalls mid-answer end the same way.
 */
export async function* withIdleTimeout<T>(
  source: AsyncIterable<T>,
  ms: number,
  onIdle: () => void,
): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const next = it.next();
    const idle = new Promise<'idle'>((resolve) => {
      timer = setTimeout(() => resolve('idle'), ms);
    });
    const result = await Promise.race([next, idle]).finally(() => clearTimeout(timer));
    if (result === 'idle') {
      onIdle();
      // The pending read settles once the call is aborted; nobody waits for it.
      next.catch(() => undefined);
      throw new ChatModelError('timeout', `the model sent nothing for ${Math.round(ms / 1000)} s`);
    }
    if (result.done) return;
    yield result.value;
  }
}

/** How one answer ended. */
export interface AnswerOutcome {
  /** What was sent to the client (the canary redacted), whole or partial. */
  text: string;
  finishReason: FinishReason;
  /** Tokens the provider reported (null when it did not, or the answer did not end normally). */
  usage: TokenUsage | null;
  /** The model as the provider named it in its answer. */
  answeredBy: string | null;
  error: ChatModelError | null;
  /** Times the canary was found and redacted. */
  redactions: number;
  /** When the first piece of text was sent (performance.now()), or null. */
  firstTextAt: number | null;
}

export interface AnswerOptions {
  idleTimeoutMs: number;
  canary: string | null;
  /** The turn's cancellation (client gone, shutdown). */
  signal: AbortSignal;
}

/**
 * Streams a model's answer to `emit`, through the canary filter, under the idle
 * timeout. Never throws: a model failure is an outcome (`error`) with the text sent
 * before it, so the caller stores the partial answer and ends the stream with an
 * error event; a cancellation is `cancelled` with the text sent so far.
 */
export async function streamAnswer(
  model: ChatModel,
  request: Omit<ChatStreamRequest, 'signal'>,
  opts: AnswerOptions,
  emit: (text: string) => void,
): Promise<AnswerOutcome> {
  const idle = new AbortController();
  const signal = AbortSignal.any([opts.signal, idle.signal]);
  const filter = new CanaryFilter(opts.canary);
  let text = '';
  let firstTextAt: number | null = null;
  const send = (piece: string) => {
    if (!piece) return;
    firstTextAt ??= performance.now();
    text += piece;
    emit(piece);
  };
  let usage: TokenUsage | null = null;
  let answeredBy: string | null = null;
  let modelFinish: FinishReason | null = null;
  let error: ChatModelError | null = null;
  try {
    for await (const event of withIdleTimeout(
      model.stream({ ...request, signal }),
      opts.idleTimeoutMs,
      () => idle.abort(),
    )) {
      if (event.type === 'delta') send(filter.push(event.text));
      else {
        modelFinish = event.finishReason;
        usage = event.usage;
        answeredBy = event.model;
      }
    }
  } catch (failure) {
    error =
      failure instanceof ChatModelError
        ? failure
        : new ChatModelError('interrupted', 'the model stopped answering unexpectedly', {
            cause: failure,
          });
  }
  send(filter.flush());
  let finishReason: FinishReason;
  if (opts.signal.aborted && !modelFinish) {
    // Whatever the call did after the turn was cancelled is a consequence of the cancel.
    finishReason = 'cancelled';
    error = null;
  } else if (error) finishReason = 'error';
  else if (modelFinish) finishReason = modelFinish;
  else {
    // A model that ends without saying it is done broke the adapter contract: treat it as cut off.
    error = new ChatModelError('interrupted', 'the model stopped before the answer was finished');
    finishReason = 'error';
  }
  return {
    text,
    finishReason,
    usage,
    answeredBy,
    error,
    redactions: filter.redactions,
    firstTextAt,
  };
}
