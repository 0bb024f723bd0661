import { z } from 'zod';
import { FeedbackValue, LlmProviderName } from './admin.js';
import { rpcOperation } from './rpc.js';
import { PathId } from './ids.js';

/**
 * Chat over a report folder: the REST bodies of `POST /chat`, the conversations,
 * messages and feedback endpoints and `GET /models`; the Server-Sent Events the
 * gateway relays; and the NATS messages between the gateway and the chat service.
 * See docs/adr/040-chat-streaming-over-nats.md and docs/adr/041-chat-turns-models-and-prompt.md.
 */

/** Longest user message accepted, in characters. */
export const CHAT_MESSAGE_MAX_CHARS = 8000;
/**
 * Largest `report_json` snapshot, serialised as JSON (UTF-8 bytes). The turn travels
 * over NATS, whose default message limit is 1 MiB, so the snapshot stays well under it.
 */
export const SNAPSHOT_MAX_BYTES = 512 * 1024;
/** Most reports one compare turn may name. */
export const COMPARE_MAX_REPORTS = 10;
/** Chunks retrieved for one turn (spec: chat retrieval top_k 6). */
export const CHAT_TOP_K = 6;
/** User/assistant pairs of earlier turns sent with a turn (spec: last 3 pairs). */
export const CHAT_HISTORY_PAIRS = 3;
/** Longest conversation title, in characters. */
export const CONVERSATION_TITLE_MAX_CHARS = 200;

/** `X-Chat-Mode`: where the turn's context came from. */
export const ChatMode = z.enum(['rag', 'full_fallback', 'compare', 'snapshot']);
export type ChatMode = z.infer<typeof ChatMode>;

/**
 * Why a single-report turn used the full text instead of retrieved chunks:
 * `no_chunks` (retrieval found nothing, e.g. a report not indexed yet) or
 * `retrieval_failed` (the retrieval service failed, timed out or was not there).
 */
export const FallbackReason = z.enum(['no_chunks', 'retrieval_failed']);
export type FallbackReason = z.infer<typeof FallbackReason>;

/** How an answer ended: the model's own reasons, or ours (`cancelled`, `error`). */
export const FinishReason = z.enum(['stop', 'length', 'content_filter', 'cancelled', 'error']);
export type FinishReason = z.infer<typeof FinishReason>;

const Title = z.string().trim().min(1).max(CONVERSATION_TITLE_MAX_CHARS);

/**
 * Body of `POST /chat` (spec "Chat"). `compare_report_ids` with 2 or more ids selects
 * compare mode (the full text of `report_id` and of those reports); `report_json` selects
 * snapshot mode (the parent's injected snapshot is the context); otherwise the turn is
 * `rag` (or `full_fallback`). `section` narrows a single-report turn to one section of
 * the main file (by name or slug); it cannot be combined with compare or snapshot.
 */
export const ChatRequest = z
  .object({
    report_id: z.uuid(),
    message: z.string().trim().min(1).max(CHAT_MESSAGE_MAX_CHARS),
    conversation_id: z.uuid().nullish(),
    section: z.string().trim().min(1).max(500).nullish(),
    compare_report_ids: z.array(z.uuid()).max(COMPARE_MAX_REPORTS).nullish(),
    model: z.string().trim().min(1).max(200).nullish(),
    report_json: z.record(z.string(), z.unknown()).nullish(),
  })
  .superRefine((body, ctx) => {
    const comparing = (body.compare_report_ids?.length ?? 0) >= 2;
    if (body.report_json) {
      const bytes = Buffer.byteLength(JSON.stringify(body.report_json), 'utf8');
      if (bytes > SNAPSHOT_MAX_BYTES)
        ctx.addIssue({
          code: 'custom',
          path: ['report_json'],
          message: `the snapshot is ${bytes} bytes as JSON; at most ${SNAPSHOT_MAX_BYTES}`,
        });
      if (comparing)
        ctx.addIssue({
          code: 'custom',
          path: ['compare_report_ids'],
          message:
            'report_json (snapshot mode) and compare_report_ids (compare mode) exclude each other',
        });
    }
    if (body.section && (comparing || body.report_json))
      ctx.addIssue({
        code: 'custom',
        path: ['section'],
        message: 'section narrows a single report; it cannot be combined with compare or snapshot',
      });
  });
export type ChatRequest = z.infer<typeof ChatRequest>;

/** One retrieved chunk a rag answer was given, cited as `[ref]` (`C1`...). */
export const ChunkUsed = z.object({
  ref: z.string(),
  id: z.uuid(),
  report_id: z.uuid(),
  section_name: z.string().nullable(),
  source_type: z.string(),
  attachment_filename: z.string().nullable(),
  /** The file the chunk comes from: the attachment's file name, else the report's. */
  file: z.string(),
  page_start: z.number().int().nullable(),
  page_end: z.number().int().nullable(),
  figure_id: z.uuid().nullable(),
  /** How an answer cites the chunk, without brackets: `Inspection.pdf p. 12`. */
  citation: z.string(),
});
export type ChunkUsed = z.infer<typeof ChunkUsed>;

/**
 * An earlier exchange of the user's own, about the same report, that chat memory put into the
 * turn (docs/adr/133-chat-memory.md): the answer's message and its conversation.
 */
export const MemoryUsed = z.object({
  ref: z.string(),
  conversation_id: z.uuid(),
  message_id: z.uuid(),
  created_at: z.string(),
});
export type MemoryUsed = z.infer<typeof MemoryUsed>;

/** `GET`/`PUT /chat/memory`: whether the caller's turns recall their earlier conversations. */
export const ChatMemorySettings = z.object({
  enabled: z
    .boolean()
    .describe("True: a turn also recalls the caller's own earlier conversations about its report"),
});
export type ChatMemorySettings = z.infer<typeof ChatMemorySettings>;

/** `DELETE /chat/memory`: forget earlier conversations (of one report, or of every report). */
export const ChatMemoryClearQuery = z.object({
  report_id: z.uuid().optional().describe('Only this report; every report when absent'),
});
export type ChatMemoryClearQuery = z.infer<typeof ChatMemoryClearQuery>;

/** Tokens of one answer (the query rewrite included) and its cost. */
export const ChatUsage = z.object({
  /** Null when the provider did not say (and for the local model, which uses none). */
  input_tokens: z.number().int().nonnegative().nullable(),
  output_tokens: z.number().int().nonnegative().nullable(),
  /** Millionths of a cent: tokens times the price table's cents per million tokens, exact. */
  cost_microcents: z.number().int().nonnegative(),
  /** False when the model is not in the price table (self-hosted): its cost is 0 and unknown. */
  priced: z.boolean(),
});
export type ChatUsage = z.infer<typeof ChatUsage>;

/**
 * `meta` of an assistant message (spec "Message metadata"): `model`, `mode`,
 * `retrieval_log_id` (rag), `chunks_used` (rag), `fallback_reason` (full_fallback),
 * `rewritten_query` (single-report turns), and ours: `provider`, `section`, how the
 * answer ended (`finish_reason`, `partial` when it was cut short), `usage`, and the
 * `error` that ended it.
 */
export const AssistantMeta = z.object({
  model: z.string(),
  provider: LlmProviderName,
  mode: ChatMode,
  retrieval_log_id: z.uuid().optional(),
  chunks_used: z.array(ChunkUsed).optional(),
  /** Earlier exchanges chat memory recalled into the turn (absent when none). */
  memory_used: z.array(MemoryUsed).optional(),
  fallback_reason: FallbackReason.optional(),
  rewritten_query: z.string().optional(),
  section: z.string().optional(),
  compare_report_ids: z.array(z.uuid()).optional(),
  finish_reason: FinishReason,
  partial: z.boolean(),
  usage: ChatUsage,
  error: z.object({ code: z.string(), detail: z.string() }).optional(),
});
export type AssistantMeta = z.infer<typeof AssistantMeta>;

/** `meta` of a user message: what the turn asked for besides the text. */
export const UserMeta = z.object({
  section: z.string().optional(),
  compare_report_ids: z.array(z.uuid()).optional(),
  snapshot: z.boolean().optional(),
  model: z.string().optional(),
});
export type UserMeta = z.infer<typeof UserMeta>;

/** One message of a conversation, oldest first in a listing. */
export const ChatMessage = z.discriminatedUnion('role', [
  z.object({
    id: z.uuid(),
    conversation_id: z.uuid(),
    role: z.literal('user'),
    content: z.string(),
    meta: UserMeta,
    user_id: z.uuid().nullable(),
    created_at: z.string(),
  }),
  z.object({
    id: z.uuid(),
    conversation_id: z.uuid(),
    role: z.literal('assistant'),
    content: z.string(),
    meta: AssistantMeta,
    /** The caller's own thumbs on this answer, if any. */
    feedback: FeedbackValue.nullable(),
    created_at: z.string(),
  }),
]);
export type ChatMessage = z.infer<typeof ChatMessage>;
export const ChatMessageList = z.array(ChatMessage);
export type ChatMessageList = z.infer<typeof ChatMessageList>;

/** A conversation about one report. Shared by the members of its tenant. */
export const Conversation = z.object({
  id: z.uuid(),
  report_id: z.uuid(),
  title: z.string(),
  created_by: z.uuid().nullable(),
  message_count: z.number().int().nonnegative(),
  created_at: z.string(),
  updated_at: z.string(),
  last_message_at: z.string().nullable(),
});
export type Conversation = z.infer<typeof Conversation>;
export const ConversationList = z.array(Conversation);
export type ConversationList = z.infer<typeof ConversationList>;

/** Query of `GET /conversations`: one report's conversations, most recently active first. */
export const ConversationListQuery = z.object({
  report_id: z.uuid(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;

/** Body of `POST /conversations`; without a title the conversation is called `New conversation` until its first message names it. */
export const ConversationCreateBody = z.object({ report_id: z.uuid(), title: Title.optional() });
export type ConversationCreateBody = z.infer<typeof ConversationCreateBody>;

/** Body of `PATCH /conversations/{conv_id}`. */
export const ConversationRenameBody = z.object({ title: Title });
export type ConversationRenameBody = z.infer<typeof ConversationRenameBody>;

export const ConversationIdParams = z.object({ conv_id: PathId });
export type ConversationIdParams = z.infer<typeof ConversationIdParams>;

/** Body of `POST /feedback`: the caller's thumbs on one assistant message; a second vote replaces the first. */
export const FeedbackBody = z.object({
  message_id: z.uuid(),
  value: FeedbackValue,
  comment: z.string().trim().max(4000).nullish(),
});
export type FeedbackBody = z.infer<typeof FeedbackBody>;

/** Where a listed model comes from: the deployment's default, its other configured models, or the caller's tenant override. */
export const ModelSource = z.enum(['default', 'configured', 'tenant_override']);
export type ModelSource = z.infer<typeof ModelSource>;

/** One model `POST /chat` accepts in `model`. */
export const ModelInfo = z.object({
  id: z.string(),
  provider: LlmProviderName,
  source: ModelSource,
  /** The tenant override's key (`provider_id`), for `tenant_override` models. */
  provider_id: z.string().nullable(),
  /** True for the local extractive answerer: it quotes the report and writes nothing new. */
  extractive: z.boolean(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

/** `GET /models`: what `model` may name, and what a turn without one uses. */
export const ModelList = z.object({ default: z.string(), models: z.array(ModelInfo) });
export type ModelList = z.infer<typeof ModelList>;

// ---------------------------------------------------------------------------
// Server-Sent Events of POST /chat. Each is `event: <name>` and `data: <JSON>`.

/** `event: start`: first event; the response headers carry the same values. */
export const ChatStartEvent = z.object({
  conversation_id: z.uuid(),
  /** The stored user message. */
  user_message_id: z.uuid(),
  /** Id the answer is stored under when the stream ends (for `POST /feedback`). */
  message_id: z.uuid(),
  model: z.string(),
  provider: LlmProviderName,
  mode: ChatMode,
  retrieval_log_id: z.uuid().nullable(),
  fallback_reason: FallbackReason.nullable(),
  rewritten_query: z.string().nullable(),
  chunks_used: z.array(ChunkUsed),
  /** Earlier exchanges of the caller's recalled by chat memory; empty when off or none match. */
  memory_used: z.array(MemoryUsed),
});
export type ChatStartEvent = z.infer<typeof ChatStartEvent>;

/** `event: chunk`: the next piece of the answer's markdown (JSON keeps its blank lines intact). */
export const ChatChunkEvent = z.object({ text: z.string() });
export type ChatChunkEvent = z.infer<typeof ChatChunkEvent>;

/** `event: end`: the answer is complete and stored. */
export const ChatEndEvent = z.object({
  message_id: z.uuid(),
  finish_reason: FinishReason,
  partial: z.boolean(),
  usage: ChatUsage,
});
export type ChatEndEvent = z.infer<typeof ChatEndEvent>;

/**
 * `event: error`: the stream ends here. `message_id` is the stored partial answer
 * (null when nothing was stored); `partial` says whether any of the answer was sent.
 */
export const ChatErrorEvent = z.object({
  code: z.string(),
  detail: z.string(),
  message_id: z.uuid().nullable(),
  partial: z.boolean(),
});
export type ChatErrorEvent = z.infer<typeof ChatErrorEvent>;

// ---------------------------------------------------------------------------
// NATS between the gateway and the chat service.

/** Queue group of the chat service: each request goes to one replica. */
export const CHAT_QUEUE = 'chat';
/** Request/reply subject that starts a turn; the reply accepts it or carries a catalogue error. */
export const CHAT_TURN_SUBJECT = 'svc.chat.turn';
/** Every replica listens here (no queue group): the one running the turn aborts it. */
export const CHAT_CANCEL_FILTER = 'svc.chat.cancel.*';
/** Published by the gateway when the client of `turnId` went away. */
export function chatCancelSubject(turnId: string): string {
  return `svc.chat.cancel.${turnId}`;
}

/** The authenticated caller of a chat operation (from the gateway's JWT check). */
export const ChatCaller = z.object({ user_id: z.uuid(), tenant_id: z.uuid() });
export type ChatCaller = z.infer<typeof ChatCaller>;

/**
 * Request on `CHAT_TURN_SUBJECT`. The gateway subscribes to `stream_subject` (an inbox
 * of its own) before sending it; the chat service answers the request once the turn is
 * checked (report, conversation and compare reports in the tenant, model available) and
 * then publishes the `ChatStreamMessage`s of the turn to `stream_subject`.
 */
export const ChatTurnRequest = z.object({
  turn_id: z.uuid(),
  stream_subject: z.string().min(1).max(255),
  caller: ChatCaller,
  request: ChatRequest,
});
export type ChatTurnRequest = z.input<typeof ChatTurnRequest>;

/** Result of an accepted turn (inside the `RpcReply` envelope). */
export const ChatTurnAccepted = z.object({ turn_id: z.uuid() });
export type ChatTurnAccepted = z.infer<typeof ChatTurnAccepted>;

const seq = z.number().int().nonnegative();

/**
 * One message of a turn's stream, in order: `start`, `chunk`s, then `end` or `error`;
 * `heartbeat`s whenever the turn is quiet. `seq` counts from 0 so the gateway sees a
 * lost message. An `error` before `start` is a turn that failed before answering.
 */
export const ChatStreamMessage = z.discriminatedUnion('type', [
  z.object({ seq, type: z.literal('start'), data: ChatStartEvent }),
  z.object({ seq, type: z.literal('chunk'), data: ChatChunkEvent }),
  z.object({ seq, type: z.literal('end'), data: ChatEndEvent }),
  z.object({ seq, type: z.literal('error'), data: ChatErrorEvent }),
  z.object({ seq, type: z.literal('heartbeat') }),
]);
export type ChatStreamMessage = z.infer<typeof ChatStreamMessage>;

const withCaller = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ caller: ChatCaller, ...shape });

export const ConversationListRequest = ConversationListQuery.extend({ caller: ChatCaller });
export const ConversationCreateRequest = ConversationCreateBody.extend({ caller: ChatCaller });
export const ConversationRequest = withCaller({ conversation_id: z.uuid() });
export const ConversationRenameRequest = ConversationRenameBody.extend({
  caller: ChatCaller,
  conversation_id: z.uuid(),
});
export const FeedbackRequest = FeedbackBody.extend({ caller: ChatCaller });
/** `GET /models`: with a tenant, its override is listed and may be the default. */
export const ModelsRequest = z.object({ tenant_id: z.uuid().nullable() });

export const ChatMemoryRequest = withCaller({});
export const ChatMemoryPutRequest = ChatMemorySettings.extend({ caller: ChatCaller });
export const ChatMemoryClearRequest = ChatMemoryClearQuery.extend({ caller: ChatCaller });
export const ChatMemoryCleared = z.object({ cleared: z.literal(true) });

export const ConversationDeleted = z.object({ id: z.uuid(), deleted: z.literal(true) });
export type ConversationDeleted = z.infer<typeof ConversationDeleted>;
export const FeedbackRecorded = z.object({
  message_id: z.uuid(),
  value: FeedbackValue,
  comment: z.string().nullable(),
});
export type FeedbackRecorded = z.infer<typeof FeedbackRecorded>;

/**
 * The chat service's request/reply operations besides the turn itself. Everything is
 * scoped to `caller.tenant_id`: anything outside it is `not_found`.
 */
export const ChatOps = {
  conversationsList: rpcOperation(
    'svc.chat.conversations.list',
    ConversationListRequest,
    ConversationList,
  ),
  conversationsCreate: rpcOperation(
    'svc.chat.conversations.create',
    ConversationCreateRequest,
    Conversation,
  ),
  conversationMessages: rpcOperation(
    'svc.chat.conversations.messages',
    ConversationRequest,
    ChatMessageList,
  ),
  conversationRename: rpcOperation(
    'svc.chat.conversations.rename',
    ConversationRenameRequest,
    Conversation,
  ),
  conversationDelete: rpcOperation(
    'svc.chat.conversations.delete',
    ConversationRequest,
    ConversationDeleted,
  ),
  feedbackPut: rpcOperation('svc.chat.feedback.put', FeedbackRequest, FeedbackRecorded),
  memoryGet: rpcOperation('svc.chat.memory.get', ChatMemoryRequest, ChatMemorySettings),
  memoryPut: rpcOperation('svc.chat.memory.put', ChatMemoryPutRequest, ChatMemorySettings),
  memoryClear: rpcOperation('svc.chat.memory.clear', ChatMemoryClearRequest, ChatMemoryCleared),
  models: rpcOperation('svc.chat.models', ModelsRequest, ModelList),
} as const;
export type ChatOpName = keyof typeof ChatOps;
