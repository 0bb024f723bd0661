import { randomUUID } from 'node:crypto';
import { headers as natsHeaders } from '@nats-io/nats-core';
import {
  AppError,
  CHAT_TURN_SUBJECT,
  ChatStreamMessage,
  ERRORS,
  RpcReply,
  chatCancelSubject,
  type ChatCaller,
  type ChatRequest,
  type ChatTurnRequest,
  type ErrorCode,
} from '@reports/contracts';
import { awaitNatsConnected, injectTraceContext, type NatsConnection } from '@reports/platform';

/** How long the chat service has to check a turn (database reads, model resolution). */
export const TURN_ACCEPT_TIMEOUT_MS = 15_000;

/** A turn the chat service accepted, whose stream the gateway reads. */
export interface OpenTurn {
  turnId: string;
  /**
   * The next message of the stream (heartbeats are consumed here). Rejects with
   * `chat_interrupted` after `silenceMs` without any message, or when a message is
   * missing (its sequence number skipped).
   */
  next(): Promise<Exclude<ChatStreamMessage, { type: 'heartbeat' }>>;
  /** Tells the chat service the client went away: it aborts the model call. */
  cancel(): void;
  /** Stops listening. */
  close(): void;
}

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

/**
 * Starts a turn (design.md section 2 step 7): subscribes to an inbox of its own, asks the
 * chat service to run the turn and stream to that inbox, and returns once the service
 * accepted it. A refusal (404, 422...) is thrown as its `AppError`; no chat service, or
 * none answering in time, is 503.
 */
export async function openTurn(
  nc: NatsConnection,
  caller: ChatCaller,
  request: ChatRequest,
  opts: { silenceMs: number },
): Promise<OpenTurn> {
  await awaitNatsConnected(nc, 'the chat service');
  const turnId = randomUUID();
  const inbox = `_INBOX.chat.${turnId.replaceAll('-', '')}`;
  const queue: ChatStreamMessage[] = [];
  let waiting: { resolve: () => void } | null = null;
  let expected = 0;
  let lastSeen = performance.now();
  let closed = false;
  const sub = nc.subscribe(inbox, {
    callback: (error, msg) => {
      if (error) return;
      try {
        queue.push(ChatStreamMessage.parse(msg.json()));
      } catch {
        return; // a message this gateway cannot read: the sequence check reports the gap
      }
      lastSeen = performance.now();
      waiting?.resolve();
    },
  });
  const close = () => {
    if (closed) return;
    closed = true;
    sub.unsubscribe();
    waiting?.resolve();
  };

  const h = natsHeaders();
  injectTraceContext(h);
  let body: RpcReply;
  try {
    const reply = await nc.request(
      CHAT_TURN_SUBJECT,
      JSON.stringify({
        turn_id: turnId,
        stream_subject: inbox,
        caller,
        request,
      } satisfies ChatTurnRequest),
      { timeout: TURN_ACCEPT_TIMEOUT_MS, headers: h },
    );
    body = RpcReply.parse(reply.json());
  } catch (error) {
    close();
    const name = error instanceof Error ? error.name : '';
    throw new AppError(
      'service_unavailable',
      name === 'TimeoutError'
        ? 'the chat service did not answer in time'
        : 'the chat service is unavailable; try again',
      { cause: error },
    );
  }
  if (!body.ok) {
    close();
    throw new AppError(
      isErrorCode(body.error.code) ? body.error.code : 'internal',
      body.error.detail,
    );
  }
  lastSeen = performance.now();

  return {
    turnId,
    async next() {
      for (;;) {
        const message = queue.shift();
        if (message) {
          if (message.seq !== expected)
            throw new AppError(
              'chat_interrupted',
              'part of the answer was lost on its way from the chat service',
            );
          expected += 1;
          if (message.type === 'heartbeat') continue;
          return message;
        }
        if (closed) throw new AppError('chat_interrupted', 'the answer stream was closed');
        const left = opts.silenceMs - (performance.now() - lastSeen);
        if (left <= 0)
          throw new AppError(
            'chat_interrupted',
            `the chat service sent nothing for ${Math.round(opts.silenceMs / 1000)} s; the answer was cut off`,
          );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting = {
            resolve: () => {
              clearTimeout(timer);
              resolve();
            },
          };
        });
        waiting = null;
      }
    },
    cancel() {
      nc.publish(chatCancelSubject(turnId));
    },
    close,
  };
}
