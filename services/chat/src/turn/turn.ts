import { randomUUID } from 'node:crypto';
import {
  AppError,
  CHAT_HISTORY_PAIRS,
  ERRORS,
  isAppError,
  type AssistantMeta,
  type ChatCaller,
  type ChatChunkEvent,
  type ChatEndEvent,
  type ChatErrorEvent,
  type ChatRequest,
  type ChatStartEvent,
  type UserMeta,
} from '@reports/contracts';
import type { Logger, Pool, RetrievalClient } from '@reports/platform';
import {
  createConversation,
  findConversation,
  messagesBefore,
  storeAnswer,
  storeUserMessage,
  type StoredConversation,
} from '../conversations/store.js';
import {
  pickSection,
  reportSections,
  reportsInTenant,
  type ReportRef,
  type ReportSection,
} from '../reports/store.js';
import { historyPairs } from '../history/history.js';
import type { ModelSpec } from '../models/catalogue.js';
import { usageOf } from '../models/prices.js';
import type { ModelRegistry } from '../models/registry.js';
import { systemPrompt, turnMessages } from '../prompt/prompt.js';
import { streamAnswer, type AnswerOutcome } from './answer.js';
import { buildContext, type TurnContext } from './context.js';
import { memoryDocuments, memoryEnabled, recall } from '../memory/memory.js';
import { chatFirstText, chatTurns } from './metrics.js';

export interface TurnSettings {
  /** CHAT_PROMPT_CANARY. */
  canary: string | null;
  idleTimeoutMs: number;
  maxOutputTokens: number;
  contextMaxChars: number;
}

/** The adapters a turn runs on, built by service.ts (or a test) and handed in. */
export interface TurnDeps {
  pool: Pool;
  retrieval: RetrievalClient;
  models: ModelRegistry;
  settings: TurnSettings;
  logger: Logger;
}

/** Where a turn's stream goes (the NATS publisher; a test may collect it). */
export interface TurnSink {
  start(data: ChatStartEvent): void;
  chunk(data: ChatChunkEvent): void;
  end(data: ChatEndEvent): void;
  error(data: ChatErrorEvent): void;
}

/** A turn whose references are all checked: what the reply to the gateway's request vouches for. */
export interface CheckedTurn {
  caller: ChatCaller;
  request: ChatRequest;
  report: ReportRef;
  /** Every report of a compare turn, `report` first; null for other turns. */
  compare: ReportRef[] | null;
  conversation: StoredConversation | null;
  section: ReportSection | null;
  model: ModelSpec;
}

/**
 * Everything that can be refused before the stream starts, so it is answered as a
 * normal HTTP error: the report, every compare report and the conversation must be in
 * the caller's tenant (404), the section must exist (404), the model must be offered (422).
 */
export async function checkTurn(
  deps: TurnDeps,
  caller: ChatCaller,
  request: ChatRequest,
): Promise<CheckedTurn> {
  const compareIds = [...new Set(request.compare_report_ids ?? [])];
  const reports = await reportsInTenant(deps.pool, caller.tenant_id, [
    request.report_id,
    ...compareIds,
  ]);
  const report = reports[0]!;
  let conversation: StoredConversation | null = null;
  if (request.conversation_id) {
    conversation = await findConversation(deps.pool, caller.tenant_id, request.conversation_id);
    if (!conversation || conversation.report_id !== report.id)
      throw new AppError('not_found', 'conversation not found');
  }
  let section: ReportSection | null = null;
  if (request.section) {
    section =
      pickSection(await reportSections(deps.pool, caller.tenant_id, report), request.section) ??
      null;
    if (!section) throw new AppError('not_found', 'section not found');
  }
  const model = await deps.models.resolve(caller.tenant_id, request.model);
  return {
    caller,
    request,
    report,
    compare: compareIds.length >= 2 ? reports : null,
    conversation,
    section,
    model,
  };
}

function userMeta(t: CheckedTurn): UserMeta {
  return {
    ...(t.section ? { section: t.section.name } : {}),
    ...(t.compare ? { compare_report_ids: t.compare.map((r) => r.id) } : {}),
    ...(t.request.report_json ? { snapshot: true } : {}),
    ...(t.request.model ? { model: t.request.model } : {}),
  };
}

function assistantMeta(t: CheckedTurn, ctx: TurnContext, outcome: AnswerOutcome): AssistantMeta {
  return {
    model: t.model.id,
    provider: t.model.provider,
    mode: ctx.mode,
    ...(ctx.retrievalLogId ? { retrieval_log_id: ctx.retrievalLogId } : {}),
    ...(ctx.mode === 'rag' ? { chunks_used: ctx.chunksUsed } : {}),
    ...(ctx.fallbackReason ? { fallback_reason: ctx.fallbackReason } : {}),
    ...(ctx.rewrittenQuery !== null ? { rewritten_query: ctx.rewrittenQuery } : {}),
    ...(t.section ? { section: t.section.name } : {}),
    ...(t.compare ? { compare_report_ids: t.compare.map((r) => r.id) } : {}),
    finish_reason: outcome.finishReason,
    partial: outcome.finishReason === 'cancelled' || outcome.finishReason === 'error',
    usage: usageOf(outcome.answeredBy ?? t.model.model, [ctx.rewriteUsage, outcome.usage]),
    ...(outcome.error ? { error: { code: 'model_error', detail: outcome.error.message } } : {}),
  };
}

const CANCELLED: AnswerOutcome = {
  text: '',
  finishReason: 'cancelled',
  usage: null,
  answeredBy: null,
  error: null,
  redactions: 0,
  firstTextAt: null,
};

/**
 * Runs a checked turn, spec step by step: get or create the conversation, store the
 * user message, load the last 3 pairs, build the context (rewrite, retrieval, or the
 * fallbacks and other modes), put it in the system prompt, stream the answer with the
 * history, store the answer with its meta and cost. The stream is `start`, `chunk`s,
 * then `end` (also for a cancelled turn) or `error` (a model failure: the partial
 * answer is stored first). A failure of ours before `start` is an `error` without a
 * message id, which the gateway answers as a normal HTTP error. Never throws.
 */
export async function runTurn(
  deps: TurnDeps,
  t: CheckedTurn,
  sink: TurnSink,
  signal: AbortSignal,
): Promise<void> {
  const started = performance.now();
  const log = deps.logger.child({ tenant_id: t.caller.tenant_id, report_id: t.report.id });
  const answerId = randomUUID();
  let mode: TurnContext['mode'] | 'unknown' = 'unknown';
  let startSent = false;
  let sentText = false;
  try {
    const conversation =
      t.conversation ??
      (await createConversation(deps.pool, {
        tenantId: t.caller.tenant_id,
        reportId: t.report.id,
        userId: t.caller.user_id,
        title: null,
      }));
    const userMessageId = randomUUID();
    const seq = await storeUserMessage(deps.pool, {
      id: userMessageId,
      conversation,
      tenantId: t.caller.tenant_id,
      userId: t.caller.user_id,
      content: t.request.message,
      meta: userMeta(t),
    });
    const history = historyPairs(
      await messagesBefore(deps.pool, conversation.id, seq, CHAT_HISTORY_PAIRS * 4),
      CHAT_HISTORY_PAIRS,
    );
    const model = deps.models.instance(t.model);
    const ctx = await buildContext(
      {
        pool: deps.pool,
        retrieval: deps.retrieval,
        logger: log,
        contextMaxChars: deps.settings.contextMaxChars,
      },
      { ...t, history, model, signal },
    );
    mode = ctx.mode;
    // Chat memory: a single-report turn also recalls the caller's own earlier exchanges.
    const memory =
      (ctx.mode === 'rag' || ctx.mode === 'full_fallback') &&
      (await memoryEnabled(deps.pool, t.caller))
        ? memoryDocuments(
            await recall(deps.pool, {
              caller: t.caller,
              reportId: t.report.id,
              conversationId: conversation.id,
              query: ctx.query,
            }),
          )
        : { documents: [], used: [] };
    const documents = [...ctx.documents, ...memory.documents];
    sink.start({
      conversation_id: conversation.id,
      user_message_id: userMessageId,
      message_id: answerId,
      model: t.model.id,
      provider: t.model.provider,
      mode: ctx.mode,
      retrieval_log_id: ctx.mode === 'rag' || ctx.mode === 'compare' ? ctx.retrievalLogId : null,
      fallback_reason: ctx.fallbackReason,
      rewritten_query: ctx.rewrittenQuery,
      chunks_used: ctx.chunksUsed,
      memory_used: memory.used,
    });
    startSent = true;

    const outcome = signal.aborted
      ? CANCELLED
      : await streamAnswer(
          model,
          {
            messages: turnMessages(
              systemPrompt({
                mode: ctx.mode,
                documents,
                section: t.section?.name,
                canary: deps.settings.canary,
              }),
              history,
              t.request.message,
            ),
            documents,
            query: ctx.query,
            maxTokens: deps.settings.maxOutputTokens,
          },
          { idleTimeoutMs: deps.settings.idleTimeoutMs, canary: deps.settings.canary, signal },
          (text) => {
            sentText = true;
            sink.chunk({ text });
          },
        );
    if (outcome.firstTextAt !== null)
      chatFirstText.observe(
        { provider: t.model.provider, mode: ctx.mode },
        (outcome.firstTextAt - started) / 1000,
      );
    if (outcome.redactions > 0)
      log.warn(
        { redactions: outcome.redactions, model: t.model.id },
        'the prompt canary appeared in an answer and was redacted',
      );
    const meta = {
      ...assistantMeta(t, ctx, outcome),
      ...(memory.used.length > 0 ? { memory_used: memory.used } : {}),
    };
    await storeAnswer(deps.pool, {
      id: answerId,
      conversationId: conversation.id,
      tenantId: t.caller.tenant_id,
      reportId: t.report.id,
      userId: t.caller.user_id,
      content: outcome.text,
      meta,
      usage: meta.usage,
    });
    chatTurns.inc({ mode: ctx.mode, outcome: outcome.finishReason });
    if (outcome.error) {
      log.warn(
        { err: outcome.error.message, reason: outcome.error.reason, model: t.model.id },
        'the model failed during a chat answer',
      );
      sink.error({
        code: 'model_error',
        detail: outcome.error.message,
        message_id: answerId,
        partial: sentText,
      });
      return;
    }
    sink.end({
      message_id: answerId,
      finish_reason: outcome.finishReason,
      partial: meta.partial,
      usage: meta.usage,
    });
  } catch (error) {
    chatTurns.inc({ mode, outcome: 'failed' });
    const known = isAppError(error);
    if (!known) log.error({ err: error }, 'chat turn failed');
    sink.error({
      code: known ? error.code : 'internal',
      detail: known ? error.detail : ERRORS.internal.detail,
      message_id: null,
      partial: startSent && sentText,
    });
  }
}
