import { ChatOps } from '@reports/contracts';
import {
  serveRpc,
  type Logger,
  type NatsConnection,
  type Pool,
  type RpcServer,
} from '@reports/platform';
import { reportsInTenant } from '../reports/store.js';
import { clearMemory, memoryEnabled, setMemory } from '../memory/memory.js';
import { modelList } from '../models/catalogue.js';
import type { ModelRegistry } from '../models/registry.js';
import {
  createConversation,
  deleteConversation,
  listConversations,
  listMessages,
  putFeedback,
  renameConversation,
} from './store.js';

/**
 * The chat's request/reply operations besides turns (conversations, messages,
 * feedback, models), in the `chat` queue group. Everything is scoped to the caller's
 * tenant; anything outside it answers `not_found`.
 */
export function serveConversationOps(
  nc: NatsConnection,
  deps: { pool: Pool; models: ModelRegistry; logger: Logger },
  queue: string,
): RpcServer[] {
  const { pool } = deps;
  const opts = { queue, logger: deps.logger };
  return [
    serveRpc(nc, ChatOps.conversationsList, opts, async (q) => {
      await reportsInTenant(pool, q.caller.tenant_id, [q.report_id]);
      return listConversations(pool, q.caller.tenant_id, q.report_id, q);
    }),
    serveRpc(nc, ChatOps.conversationsCreate, opts, async (q) => {
      await reportsInTenant(pool, q.caller.tenant_id, [q.report_id]);
      const { titled: _titled, ...conversation } = await createConversation(pool, {
        tenantId: q.caller.tenant_id,
        reportId: q.report_id,
        userId: q.caller.user_id,
        title: q.title ?? null,
      });
      return conversation;
    }),
    serveRpc(nc, ChatOps.conversationMessages, opts, (q) =>
      listMessages(pool, q.caller.tenant_id, q.conversation_id, q.caller.user_id),
    ),
    serveRpc(nc, ChatOps.conversationRename, opts, (q) =>
      renameConversation(pool, q.caller.tenant_id, q.conversation_id, q.title),
    ),
    serveRpc(nc, ChatOps.conversationDelete, opts, async (q) => {
      await deleteConversation(pool, q.caller.tenant_id, q.conversation_id);
      return { id: q.conversation_id, deleted: true as const };
    }),
    serveRpc(nc, ChatOps.feedbackPut, opts, (q) =>
      putFeedback(pool, {
        tenantId: q.caller.tenant_id,
        userId: q.caller.user_id,
        messageId: q.message_id,
        value: q.value,
        comment: q.comment ?? null,
      }),
    ),
    serveRpc(nc, ChatOps.memoryGet, opts, async (q) => ({
      enabled: await memoryEnabled(pool, q.caller),
    })),
    serveRpc(nc, ChatOps.memoryPut, opts, async (q) => {
      await setMemory(pool, q.caller, q.enabled);
      return { enabled: q.enabled };
    }),
    serveRpc(nc, ChatOps.memoryClear, opts, async (q) => {
      if (q.report_id) await reportsInTenant(pool, q.caller.tenant_id, [q.report_id]);
      await clearMemory(pool, q.caller, q.report_id ?? null);
      return { cleared: true as const };
    }),
    serveRpc(nc, ChatOps.models, opts, async (q) =>
      modelList(await deps.models.catalogue(q.tenant_id)),
    ),
  ];
}
