import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import type { z } from 'zod';
import {
  CHAT_TURN_SUBJECT,
  ChatStreamMessage,
  RpcReply,
  chatCancelSubject,
  type ChatCaller,
  type ChatTurnRequest,
  type RpcOperation,
} from '@reports/contracts';
import { connectNats, loadConfig, requestRpc, type Nats } from '@reports/platform';
import { LocalEmbedder } from '@reports/providers';
import { createTestDatabase, type TestDatabase } from '@reports/test-support';
import { startNatsServer, type TestNatsServer } from '@reports/test-support';
import {
  startFakeChatModel,
  type FakeChatModel,
  type FakeChatModelOptions,
} from '@reports/test-support';
// The real retrieval service, in this process: chat turns retrieve through it over NATS.
import { startRetrieval } from '../../retrieval/src/service.js';
import { chatDeps, startChat } from '../src/service.js';

export const CANARY = 'CANARY-7f3a9c';

/**
 * The chat service as main.ts starts it, beside the real retrieval service, on a
 * database and NATS server of their own; the model APIs are local servers speaking the
 * OpenAI and Mistral streaming protocols.
 */
export interface TestChat {
  db: TestDatabase;
  nats: Nats;
  openai: FakeChatModel;
  mistral: FakeChatModel;
  call<Req extends z.ZodType, Res extends z.ZodType>(
    op: RpcOperation<Req, Res>,
    request: z.input<Req>,
  ): Promise<z.output<Res>>;
  stopRetrieval(): Promise<void>;
  startRetrieval(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestChat(
  env: Record<string, string> = {},
  fakes: { openai?: Partial<FakeChatModelOptions>; mistral?: Partial<FakeChatModelOptions> } = {},
): Promise<TestChat> {
  const db = await createTestDatabase();
  const natsServer: TestNatsServer = await startNatsServer();
  const openai = await startFakeChatModel({ flavour: 'openai', ...fakes.openai });
  const mistral = await startFakeChatModel({ flavour: 'mistral', ...fakes.mistral });
  const config = loadConfig({
    DATABASE_URL: db.url,
    NATS_URL: natsServer.url,
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: `${openai.url}/v1`,
    MISTRAL_API_KEY: 'mistral-test',
    MISTRAL_BASE_URL: mistral.url,
    CHAT_MODELS: 'mistral:mistral-small-latest',
    CHAT_PROMPT_CANARY: CANARY,
    CHAT_MODEL_IDLE_TIMEOUT_MS: '3000',
    CHAT_MODEL_MAX_RETRIES: '1',
    CHAT_HEARTBEAT_MS: '200',
    ...env,
  });
  const logger = pino({ level: 'silent' });
  const nats = await connectNats(natsServer.url, 'chat-test');
  // Retrieval runs with the defaults (local embedder, no model: no HyDE), as on a laptop.
  const retrievalConfig = loadConfig({ DATABASE_URL: db.url, NATS_URL: natsServer.url });
  const retrievalRt = { config: retrievalConfig, logger, pool: db.pool, nats };
  let stopRetrieval: (() => Promise<void>) | null = await startRetrieval(retrievalRt);
  const rt = { config, logger, pool: db.pool, nats };
  const stopChat = await startChat(rt, chatDeps(rt, { initialBackoffMs: 20 }));
  return {
    db,
    nats,
    openai,
    mistral,
    call: (op, request) => requestRpc(nats.nc, op, request, { service: 'chat' }),
    async stopRetrieval() {
      await stopRetrieval?.();
      stopRetrieval = null;
    },
    async startRetrieval() {
      stopRetrieval ??= await startRetrieval(retrievalRt);
    },
    async close() {
      await stopChat();
      await stopRetrieval?.();
      await nats.nc.close();
      await natsServer.stop();
      await openai.close();
      await mistral.close();
      await db.drop();
    },
  };
}

/** What a turn sent back: the verdict on the request, then its stream. */
export interface TurnResult {
  reply: RpcReply;
  messages: ChatStreamMessage[];
  text: string;
  start: Extract<ChatStreamMessage, { type: 'start' }>['data'] | null;
  end: Extract<ChatStreamMessage, { type: 'end' }>['data'] | null;
  error: Extract<ChatStreamMessage, { type: 'error' }>['data'] | null;
}

/**
 * Runs one turn over NATS as the gateway does: subscribe to an inbox, send the turn
 * with it, read the stream in order until `end` or `error`. `cancelAfterChunks`
 * publishes the cancel the gateway sends when its client goes away.
 */
export async function runTurn(
  nats: Nats,
  caller: ChatCaller,
  request: ChatTurnRequest['request'],
  opts: { cancelAfterChunks?: number; timeoutMs?: number } = {},
): Promise<TurnResult> {
  const turnId = randomUUID();
  const inbox = `_INBOX.test.${turnId.replaceAll('-', '')}`;
  const messages: ChatStreamMessage[] = [];
  const sub = nats.nc.subscribe(inbox);
  const done = (async () => {
    let chunks = 0;
    for await (const m of sub) {
      const message = ChatStreamMessage.parse(m.json());
      if (message.type === 'heartbeat') continue;
      messages.push(message);
      if (message.type === 'chunk') {
        chunks += 1;
        if (opts.cancelAfterChunks === chunks) nats.nc.publish(chatCancelSubject(turnId));
      }
      if (message.type === 'end' || message.type === 'error') break;
    }
  })();
  const raw = await nats.nc.request(
    CHAT_TURN_SUBJECT,
    JSON.stringify({
      turn_id: turnId,
      stream_subject: inbox,
      caller,
      request,
    } satisfies ChatTurnRequest),
    { timeout: 20_000 },
  );
  const reply = RpcReply.parse(raw.json());
  if (!reply.ok) {
    sub.unsubscribe();
    return { reply, messages, text: '', start: null, end: null, error: null };
  }
  const timer = setTimeout(() => sub.unsubscribe(), opts.timeoutMs ?? 60_000);
  await done;
  clearTimeout(timer);
  sub.unsubscribe();
  let start: TurnResult['start'] = null;
  let end: TurnResult['end'] = null;
  let error: TurnResult['error'] = null;
  for (const m of messages) {
    if (m.type === 'start') start = m.data;
    if (m.type === 'end') end = m.data;
    if (m.type === 'error') error = m.data;
  }
  return {
    reply,
    messages,
    text: messages.flatMap((m) => (m.type === 'chunk' ? [m.data.text] : [])).join(''),
    start,
    end,
    error,
  };
}

/** A tenant and a user of it. */
export async function seedCaller(db: TestDatabase): Promise<ChatCaller> {
  const tenantId = randomUUID();
  await db.pool.query(`INSERT INTO tenants (id, name, kind) VALUES ($1, 'tenant', 'personal')`, [
    tenantId,
  ]);
  return { tenant_id: tenantId, user_id: randomUUID() };
}

const embedder = new LocalEmbedder();

/**
 * A ready report of the tenant with its sections and one embedded chunk per section,
 * as the pipeline leaves it; `chunks: false` leaves it unindexed (no chunks yet).
 */
export async function seedReport(
  db: TestDatabase,
  tenantId: string,
  opts: { title: string; sections: Array<{ name: string; text: string }>; chunks?: boolean },
): Promise<{ id: string; sectionIds: string[]; chunkIds: string[] }> {
  const id = randomUUID();
  const markdown = opts.sections.map((s) => `## ${s.name}\n\n${s.text}`).join('\n\n');
  await db.pool.query(
    `INSERT INTO reports (id, tenant_id, filename, title, content_type, document_kind, size_bytes, sha256, object_key,
                          status, parsed_markdown)
     VALUES ($1, $2, 'survey.html', $3, 'text/html', 'html', 100, repeat('0', 64), $4, 'ready', $5)`,
    [id, tenantId, opts.title, `tenants/${tenantId}/reports/${id}/original/source.html`, markdown],
  );
  const sectionIds: string[] = [];
  const chunkIds: string[] = [];
  for (const [i, s] of opts.sections.entries()) {
    const sectionId = randomUUID();
    sectionIds.push(sectionId);
    const slug = s.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await db.pool.query(
      `INSERT INTO sections (id, tenant_id, report_id, target_id, section_name, section_slug, level, order_in_doc, markdown)
       VALUES ($1, $2, $3, $3, $4, $5, 2, $6, $7)`,
      [sectionId, tenantId, id, s.name, slug, i, s.text],
    );
    if (opts.chunks === false) continue;
    const chunkId = randomUUID();
    chunkIds.push(chunkId);
    const [vector] = await embedder.embed([s.text]);
    await db.pool.query(
      `INSERT INTO chunks (id, tenant_id, report_id, target_id, section_id, section_name, section_slug, source_label,
                           content, content_tokens, order_in_doc, embedding, embedding_model)
       VALUES ($1, $2, $3, $3, $4, $5, $6, $5, $7, $8, $9, $10, $11)`,
      [
        chunkId,
        tenantId,
        id,
        sectionId,
        s.name,
        slug,
        s.text,
        s.text.split(/\s+/).length,
        i,
        `[${vector!.join(',')}]`,
        embedder.model,
      ],
    );
  }
  return { id, sectionIds, chunkIds };
}

/** The messages of the request a fake model received, by role. */
export function sentMessages(body: unknown): Array<{ role: string; content: string }> {
  return ((body as { messages?: Array<{ role: string; content: string }> }).messages ?? []).map(
    (m) => ({
      role: m.role,
      content: m.content,
    }),
  );
}
