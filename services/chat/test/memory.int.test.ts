import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssistantMeta, ChatOps, type ChatCaller } from '@reports/contracts';
import {
  runTurn,
  seedCaller,
  seedReport,
  sentMessages,
  startTestChat,
  type TestChat,
} from './support.js';

let chat: TestChat;
let alice: ChatCaller;
/** Another member of alice's tenant: shares her conversations, never her memory. */
let colleague: ChatCaller;
let survey: Awaited<ReturnType<typeof seedReport>>;
let other: Awaited<ReturnType<typeof seedReport>>;

const QUESTION = 'What did the roofer say about the chimney flashing?';
/** Alice's exchange about the flashing, before memory was on. */
let flashing: string;
/** Every conversation alice has had: her turns are memory too. */
const alicesConversations = new Set<string>();

beforeAll(async () => {
  chat = await startTestChat({}, {});
  alice = await seedCaller(chat.db);
  colleague = { tenant_id: alice.tenant_id, user_id: randomUUID() };
  survey = await seedReport(chat.db, alice.tenant_id, {
    title: 'Survey of 3 Oak Lane',
    sections: [
      { name: 'Roof', text: 'The roof covering is natural slate laid on battens.' },
      { name: 'Heating', text: 'A gas boiler heats the house.' },
    ],
  });
  other = await seedReport(chat.db, alice.tenant_id, {
    title: 'Survey of 5 Oak Lane',
    sections: [{ name: 'Roof', text: 'Concrete tiles.' }],
  });
});
afterAll(async () => {
  await chat?.close();
});

/** One local-extractive turn in a new conversation; its start event and stored answer meta. */
async function ask(
  caller: ChatCaller,
  reportId: string,
  message: string,
  model = 'local-extractive',
) {
  const turn = await runTurn(chat.nats, caller, { report_id: reportId, message, model });
  expect(turn.error).toBeNull();
  if (caller === alice) alicesConversations.add(turn.start!.conversation_id);
  const { rows } = await chat.db.pool.query<{ meta: unknown }>(
    'SELECT meta FROM messages WHERE id = $1',
    [turn.end!.message_id],
  );
  return { turn, meta: AssistantMeta.parse(rows[0]!.meta) };
}

/** An earlier exchange as if it had happened: a question and its answer in a conversation. */
async function exchange(caller: ChatCaller, reportId: string, question: string, answer: string) {
  const conversation = await chat.call(ChatOps.conversationsCreate, {
    caller,
    report_id: reportId,
    title: 'Roof',
  });
  await chat.db.pool.query(
    `INSERT INTO messages (id, conversation_id, tenant_id, report_id, user_id, role, content, meta)
     VALUES ($1, $3, $4, $5, $6, 'user', $7, '{}'), ($2, $3, $4, $5, NULL, 'assistant', $8, '{}')`,
    [
      randomUUID(),
      randomUUID(),
      conversation.id,
      caller.tenant_id,
      reportId,
      caller.user_id,
      question,
      answer,
    ],
  );
  return conversation.id;
}

describe('chat memory', () => {
  it('is off by default: nothing is recalled', async () => {
    flashing = await exchange(
      alice,
      survey.id,
      'Did the roofer look at the chimney flashing?',
      'The roofer said the chimney flashing is lifting and quoted 450 dollars to dress it back. [quote.pdf p. 1]',
    );
    expect(await chat.call(ChatOps.memoryGet, { caller: alice })).toEqual({ enabled: false });
    const { turn, meta } = await ask(alice, survey.id, QUESTION);
    expect(turn.start!.memory_used).toEqual([]);
    expect(meta.memory_used).toBeUndefined();
    expect(turn.text).not.toContain('450');
  });

  it('when on, recalls the caller’s own earlier exchange about the report, marked as memory', async () => {
    expect(await chat.call(ChatOps.memoryPut, { caller: alice, enabled: true })).toEqual({
      enabled: true,
    });
    const { turn, meta } = await ask(alice, survey.id, QUESTION);
    // The earlier exchange, and her own first turn (asked while memory was off: still hers).
    expect(turn.start!.memory_used.map((m) => m.conversation_id)).toContain(flashing);
    expect(meta.memory_used).toEqual(turn.start!.memory_used);
    // The local answerer says where the fact comes from; the old citation is not carried over.
    expect(turn.text).toMatch(
      /^From your earlier conversation: .*chimney flashing is lifting and quoted 450 dollars.*\[your earlier conversation of \d{4}-\d{2}-\d{2}\]/,
    );
    expect(turn.text).not.toContain('quote.pdf');

    // A remote model is told which documents are memory.
    await ask(alice, survey.id, QUESTION, 'gpt-4o-mini');
    const system = sentMessages(chat.openai.requests.at(-1)!.body)[0]!.content;
    expect(system).toContain('<document id="M1" title="Memory: your earlier question');
    expect(system).toMatch(/Documents M1, M2 are memory: the user's own earlier conversations/);
  });

  it("never recalls another member's exchanges, or another report's", async () => {
    await chat.call(ChatOps.memoryPut, { caller: colleague, enabled: true });
    const { turn } = await ask(colleague, survey.id, QUESTION);
    expect(turn.start!.memory_used).toEqual([]);
    const again = await ask(colleague, survey.id, QUESTION);
    // Only the colleague's own first turn.
    const recalled = again.turn.start!.memory_used.map((m) => m.conversation_id);
    expect(recalled).toEqual([turn.start!.conversation_id]);
    expect(recalled.some((id) => alicesConversations.has(id))).toBe(false);
    const elsewhere = await ask(alice, other.id, QUESTION);
    expect(elsewhere.turn.start!.memory_used).toEqual([]);
  });

  it('never recalls a deleted conversation', async () => {
    const conversation = await exchange(
      alice,
      survey.id,
      'What about the boiler flue?',
      'The boiler flue terminal is too close to the bedroom window.',
    );
    const before = await ask(alice, survey.id, 'Is the boiler flue terminal a problem?');
    expect(before.turn.start!.memory_used.map((m) => m.conversation_id)).toContain(conversation);
    await chat.call(ChatOps.conversationDelete, { caller: alice, conversation_id: conversation });
    const after = await ask(alice, survey.id, 'Is the boiler flue terminal a problem?');
    expect(after.turn.start!.memory_used.map((m) => m.conversation_id)).not.toContain(conversation);
  });

  it('forgets everything said before a clear, of one report', async () => {
    const recalled = await ask(alice, survey.id, QUESTION);
    expect(recalled.turn.start!.memory_used.length).toBeGreaterThan(0);
    await chat.call(ChatOps.memoryClear, { caller: alice, report_id: survey.id });
    const cleared = await ask(alice, survey.id, QUESTION);
    expect(cleared.turn.start!.memory_used).toEqual([]);
    // What is said after the clear is remembered again.
    const pots = await exchange(
      alice,
      survey.id,
      'And the chimney pots?',
      'Two chimney pots are cracked.',
    );
    const later = await ask(alice, survey.id, 'Are the chimney pots cracked?');
    expect(later.turn.start!.memory_used.map((m) => m.conversation_id)).toContain(pots);
    expect(later.turn.start!.memory_used.map((m) => m.conversation_id)).not.toContain(flashing);
  });

  it('refuses to clear the memory of a report outside the tenant', async () => {
    const stranger = await seedCaller(chat.db);
    await expect(
      chat.call(ChatOps.memoryClear, { caller: stranger, report_id: survey.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
