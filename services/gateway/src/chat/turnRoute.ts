import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  CHAT_HISTORY_PAIRS,
  CHAT_TOP_K,
  ChatChunkEvent,
  ChatEndEvent,
  ChatErrorEvent,
  ChatRequest,
  ChatStartEvent,
  ERRORS,
  ErrorBody,
  SNAPSHOT_MAX_BYTES,
  isAppError,
  type ErrorCode,
} from '@reports/contracts';
import type { GatewayDeps } from '../deps.js';
import { currentUser } from '../auth/types.js';
import { LIMITS } from '../limits/rateLimit.js';
import { SSE_KEEPALIVE, chatHeaders, sseEvent } from './sse.js';
import { openTurn } from './turnClient.js';

const KEEPALIVE_MS = 15_000;

/** What one SSE event of `POST /chat` carries (each is `event:` + `data:`). */
const ChatSseEvent = z
  .discriminatedUnion('event', [
    z.object({ event: z.literal('start'), data: ChatStartEvent }),
    z.object({ event: z.literal('chunk'), data: ChatChunkEvent }),
    z.object({ event: z.literal('end'), data: ChatEndEvent }),
    z.object({ event: z.literal('error'), data: ChatErrorEvent }),
  ])
  .describe(
    'A `text/event-stream`. Each event is `event: <name>` and one `data:` line holding the JSON shown here ' +
      '(`data` of the matching variant): first `start`, then `chunk`s, then `end` or `error`. Comment lines ' +
      '(`: keepalive`) may come in between.',
  );

/**
 * The 200 answer as OpenAPI shows it: `text/event-stream` whose events are ChatSseEvent
 * (@fastify/swagger takes a response schema's own `content`). The route hijacks the
 * reply, so this schema never serialises anything.
 */
const ChatStream = z.string().meta({
  description: ChatSseEvent.description,
  content: { 'text/event-stream': { schema: z.toJSONSchema(ChatSseEvent, { io: 'output' }) } },
});

const CHAT_DESCRIPTION = [
  'Streams the answer to one chat turn as Server-Sent Events (`text/event-stream`).',
  '',
  '**Modes** (`X-Chat-Mode`): `rag` (default): the message is rewritten into a standalone query using the last',
  `${CHAT_HISTORY_PAIRS} question/answer pairs (unchanged without history), the report folder is searched (top_k ${CHAT_TOP_K}) and the`,
  'chunks are the context; `full_fallback`: retrieval found no chunks (`fallback_reason: no_chunks`) or failed',
  '(`retrieval_failed`), so the full report text is the context; `compare`: 2 or more `compare_report_ids`, the full',
  'text of `report_id` and of those reports; `snapshot`: `report_json` (a snapshot injected by the host application,',
  `at most ${SNAPSHOT_MAX_BYTES} bytes as JSON) is the context. \`section\` (name or slug of a section of the main file)`,
  'narrows a single-report turn: only chunks of that section are used (the folder is searched and its chunks kept),',
  "and the fallback is that section's full text; it cannot be combined with compare or snapshot.",
  '',
  '**Headers**: `X-Conversation-Id` (created when `conversation_id` is null), `X-LLM-Model` (the resolved model: the',
  "request's `model`, else the tenant's provider override, else the default; see `GET /models`), `X-Chat-Mode`,",
  '`X-Retrieval-Log-Id` (rag only).',
  '',
  '**Events**, each `event: <name>` with `data: <JSON>` on one line:',
  '- `start`: `{ conversation_id, user_message_id, message_id, model, provider, mode, retrieval_log_id, fallback_reason,',
  '  rewritten_query, chunks_used: [{ ref, id, report_id, section_name, source_type, attachment_filename }] }`.',
  '  `message_id` is the id the answer is stored under (for `POST /feedback`); the answer cites chunks as `[C1]`...',
  '- `chunk`: `{ text }`, the next piece of the markdown answer.',
  '- `end`: `{ message_id, finish_reason (stop|length|content_filter|cancelled), partial, usage: { input_tokens,',
  '  output_tokens, cost_microcents, priced } }`: the answer is stored.',
  '- `error`: `{ code, detail, message_id, partial }`: the stream ends here. `model_error`: the model failed (429, 5xx,',
  '  stream cut off, nothing sent for CHAT_MODEL_IDLE_TIMEOUT_MS); what was sent is stored as a partial answer',
  '  (`message_id`). `chat_interrupted`: the chat service sent nothing for CHAT_SILENCE_TIMEOUT_MS (default 20 s).',
  '',
  'A client that disconnects cancels the model call; the partial answer is stored with `meta.partial: true` and',
  '`meta.finish_reason: cancelled`. Errors before the stream starts are normal JSON errors: 404 for a report,',
  'compare report, conversation or section outside the tenant, 422 for a bad body or a model not offered, 503 when',
  'the chat service is unavailable.',
].join('\n');

/** Headers plugins set on the reply before it was hijacked (CORS, rate limit). */
function replyHeaders(reply: FastifyReply): Record<string, string | string[] | number> {
  const out: Record<string, string | string[] | number> = {};
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) out[name] = value;
  return out;
}

/** `POST /chat`: one turn, relayed from the chat service over NATS as Server-Sent Events. */
export function chatTurnRoute(fastify: FastifyInstance, deps: GatewayDeps): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const nc = deps.nats.nc;
  // Chat streams in progress: ended (and their turns cancelled) when the gateway shuts down.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const stop of [...open]) stop();
  });

  app.post(
    '/chat',
    {
      preHandler: app.authenticate,
      config: { rateLimit: LIMITS.chat },
      schema: {
        tags: ['chat'],
        summary: 'Ask a question about a report; the answer streams as Server-Sent Events',
        description: CHAT_DESCRIPTION,
        security: [{ bearerAuth: [] }],
        body: ChatRequest,
        response: {
          200: ChatStream,
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
          422: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
          504: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const turn = await openTurn(
        nc,
        { user_id: user.id, tenant_id: user.tenant_id },
        request.body,
        {
          silenceMs: deps.config.CHAT_SILENCE_TIMEOUT_MS,
        },
      );
      // A client that leaves while the turn is being prepared (rewrite, retrieval) cancels it too.
      const leftEarly = () => {
        turn.cancel();
        turn.close();
      };
      reply.raw.once('close', leftEarly);
      let first;
      try {
        first = await turn.next();
      } catch (error) {
        turn.cancel();
        turn.close();
        throw error;
      } finally {
        reply.raw.off('close', leftEarly);
      }
      if (first.type !== 'start') {
        turn.close();
        // The turn failed before its answer started: a normal JSON error with the service's code.
        if (first.type === 'error') throw catalogueError(first.data.code, first.data.detail);
        throw new AppError('internal');
      }
      const start = first.data;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { ...replyHeaders(reply), ...chatHeaders(start) });
      res.write(sseEvent('start', start));
      let finished = false;
      let chunks = 0;
      const keepalive = setInterval(() => res.write(SSE_KEEPALIVE), KEEPALIVE_MS);
      const stop = (why: 'client' | 'shutdown') => {
        if (finished) return;
        finished = true;
        turn.cancel();
        turn.close();
        if (why === 'shutdown') {
          res.write(
            sseEvent('error', {
              code: 'service_unavailable',
              detail: 'the gateway is shutting down; the answer was cut off',
              message_id: start.message_id,
              partial: chunks > 0,
            }),
          );
          res.end();
        }
      };
      const onClose = () => {
        if (!finished)
          request.log.info(
            { conversation_id: start.conversation_id },
            'chat client went away; turn cancelled',
          );
        stop('client');
      };
      const onShutdown = () => stop('shutdown');
      res.once('close', onClose);
      open.add(onShutdown);
      try {
        for (;;) {
          const message = await turn.next();
          if (message.type === 'chunk') {
            chunks += 1;
            res.write(sseEvent('chunk', message.data));
          } else if (message.type === 'end' || message.type === 'error') {
            res.write(sseEvent(message.type, message.data));
            break;
          }
        }
      } catch (error) {
        if (!finished) {
          const e = isAppError(error) ? error : new AppError('chat_interrupted');
          request.log.warn(
            { err: e.detail, conversation_id: start.conversation_id },
            'chat stream interrupted',
          );
          res.write(
            sseEvent('error', {
              code: e.code,
              detail: e.detail,
              message_id: null,
              partial: chunks > 0,
            }),
          );
          turn.cancel();
        }
      } finally {
        finished = true;
        clearInterval(keepalive);
        open.delete(onShutdown);
        res.off('close', onClose);
        turn.close();
        res.end();
      }
    },
  );
}

function catalogueError(code: string, detail: string): AppError {
  return new AppError(Object.hasOwn(ERRORS, code) ? (code as ErrorCode) : 'internal', detail);
}
