import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChatMemoryClearQuery,
  ChatMemorySettings,
  ChatMessageList,
  Conversation,
  ConversationCreateBody,
  ConversationIdParams,
  ConversationList,
  ConversationListQuery,
  ConversationRenameBody,
  ErrorBody,
  FeedbackBody,
} from '@reports/contracts';
import { chatClient } from '@reports/platform';
import type { GatewayDeps } from '../deps.js';
import { currentUser, type AuthUser } from '../auth/types.js';

const security = [{ bearerAuth: [] }];
const errors = { 401: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody };
const TAGS = ['chat'];
const caller = (user: AuthUser) => ({ user_id: user.id, tenant_id: user.tenant_id });

/**
 * Conversations, their messages and feedback: request/reply to the chat service, which
 * owns those tables (docs/adr/040). Shared by the members of a tenant; anything
 * outside the caller's tenant answers 404.
 */
export async function conversationRoutes(
  fastify: FastifyInstance,
  { deps }: { deps: GatewayDeps },
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const chat = chatClient(deps.nats.nc);

  app.get(
    '/conversations',
    {
      preHandler: app.authenticate,
      schema: {
        tags: TAGS,
        summary: "A report's conversations, most recently active first",
        security,
        querystring: ConversationListQuery,
        response: { 200: ConversationList, 422: ErrorBody, ...errors },
      },
    },
    async (request) =>
      chat.conversationsList({ ...request.query, caller: caller(currentUser(request)) }),
  );

  app.post(
    '/conversations',
    {
      preHandler: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'Start a conversation about a report',
        description:
          'Without a title the conversation is called `New conversation` until its first message names it. ' +
          '`POST /chat` with `conversation_id: null` also creates one.',
        security,
        body: ConversationCreateBody,
        response: { 201: Conversation, 422: ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      const created = await chat.conversationsCreate({
        ...request.body,
        caller: caller(currentUser(request)),
      });
      return reply
        .status(201)
        .header('location', `/conversations/${created.id}/messages`)
        .send(created);
    },
  );

  app.get(
    '/conversations/:conv_id/messages',
    {
      preHandler: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'The messages of a conversation, oldest first',
        description:
          'Assistant messages carry `meta` (model, mode, retrieval_log_id, chunks_used, fallback_reason, rewritten_query, ' +
          "finish_reason, partial, usage) and `feedback`, the caller's own thumbs on it.",
        security,
        params: ConversationIdParams,
        response: { 200: ChatMessageList, ...errors },
      },
    },
    async (request) =>
      chat.conversationMessages({
        caller: caller(currentUser(request)),
        conversation_id: request.params.conv_id,
      }),
  );

  app.patch(
    '/conversations/:conv_id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'Rename a conversation',
        security,
        params: ConversationIdParams,
        body: ConversationRenameBody,
        response: { 200: Conversation, 422: ErrorBody, ...errors },
      },
    },
    async (request) =>
      chat.conversationRename({
        caller: caller(currentUser(request)),
        conversation_id: request.params.conv_id,
        title: request.body.title,
      }),
  );

  app.delete(
    '/conversations/:conv_id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'Delete a conversation and its messages',
        description: 'Feedback on its answers and their cost stay in the admin reports.',
        security,
        params: ConversationIdParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await chat.conversationDelete({
        caller: caller(currentUser(request)),
        conversation_id: request.params.conv_id,
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/chat/memory',
    {
      preHandler: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'Whether your chat turns recall your earlier conversations (chat memory)',
        description:
          'Off unless you turn it on. When on, a turn about a report also recalls your own earlier questions and ' +
          "the answers to them from your other conversations about that report (never another member's), marks " +
          'them as memory in the prompt and lists them in `memory_used` of the stream and of the stored answer.',
        security,
        response: { 200: ChatMemorySettings, ...errors },
      },
    },
    async (request) => chat.memoryGet({ caller: caller(currentUser(request)) }),
  );

  app.put(
    '/chat/memory',
    {
      preHandler: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'Turn chat memory on or off for yourself',
        security,
        body: ChatMemorySettings,
        response: { 200: ChatMemorySettings, 422: ErrorBody, ...errors },
      },
    },
    async (request) =>
      chat.memoryPut({ caller: caller(currentUser(request)), enabled: request.body.enabled }),
  );

  app.delete(
    '/chat/memory',
    {
      preHandler: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'Clear your chat memory, of one report or of all',
        description:
          'Nothing said before now is recalled again. The conversations themselves stay; deleting a ' +
          'conversation also removes it from memory. A report outside your tenant answers 404.',
        security,
        querystring: ChatMemoryClearQuery,
        response: { 204: z.null().describe('Cleared'), 422: ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      await chat.memoryClear({ caller: caller(currentUser(request)), ...request.query });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/feedback',
    {
      preHandler: app.authenticate,
      schema: {
        tags: TAGS,
        summary: 'Thumbs up or down on one answer',
        description:
          'One vote per user per message: sending again replaces the earlier vote (and its comment). Only assistant ' +
          'messages take feedback (422 otherwise); a message outside the tenant answers 404.',
        security,
        body: FeedbackBody,
        response: { 204: z.null().describe('Recorded'), 422: ErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      await chat.feedbackPut({ ...request.body, caller: caller(currentUser(request)) });
      return reply.status(204).send(null);
    },
  );
}
