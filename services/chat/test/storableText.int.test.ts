import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCaller } from '@reports/contracts';
import { runTurn, seedCaller, seedReport, startTestChat, type TestChat } from './support.js';

/**
 * Text no store can keep (a NUL character, an unpaired UTF-16 surrogate) in a
 * question or in a model's answer never costs the answer: the turn ends with
 * `end` and both messages are stored, NUL removed and the lone surrogate
 * replaced by U+FFFD (docs/adr/095). The gateway already refuses such questions
 * (400); this is the chat service's own guard, for model output above all.
 */
const HOSTILE_ANSWER = 'The roof\u0000 is slate \ud800 [C1].';

let chat: TestChat;
let alice: ChatCaller;
let survey: Awaited<ReturnType<typeof seedReport>>;

beforeAll(async () => {
  const answer = () => HOSTILE_ANSWER;
  chat = await startTestChat({}, { openai: { answer }, mistral: { answer } });
  alice = await seedCaller(chat.db);
  survey = await seedReport(chat.db, alice.tenant_id, {
    title: 'Survey',
    sections: [{ name: 'Roof', text: 'The roof covering is natural slate.' }],
  });
});
afterAll(async () => {
  await chat?.close();
});

describe('text that cannot be stored as it is', () => {
  it('stores the answer and the question of a turn whose texts hold a NUL and a lone surrogate', async () => {
    const turn = await runTurn(chat.nats, alice, {
      report_id: survey.id,
      message: 'Is the roof \udc00 slate\u0000?',
    });
    expect(turn.error).toBeNull();
    expect(turn.end).not.toBeNull();
    const { rows } = await chat.db.pool.query<{ role: string; content: string }>(
      `SELECT role, content FROM messages WHERE conversation_id = $1 ORDER BY seq`,
      [turn.start!.conversation_id],
    );
    expect(rows).toEqual([
      { role: 'user', content: 'Is the roof \ufffd slate?' },
      { role: 'assistant', content: 'The roof is slate \ufffd [C1].' },
    ]);
  });
});
