import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCaller } from '@reports/contracts';
import { rowsOnceWritten } from '@reports/test-support';
import {
  runTurn,
  seedCaller,
  seedReport,
  sentMessages,
  startTestChat,
  type TestChat,
} from './support.js';

// Compare turns whose reports are too long for their full text (docs/adr/130): one
// multi_report retrieval over the reports, the chunks titled with their report.

let chat: TestChat;
let alice: ChatCaller;
let first: Awaited<ReturnType<typeof seedReport>>;
let second: Awaited<ReturnType<typeof seedReport>>;

const filler = (topic: string) =>
  Array.from({ length: 40 }, (_, i) => `Paragraph ${i} about the ${topic} of the house.`).join(' ');

beforeAll(async () => {
  // The smallest context budget: 500 characters per report, far less than each report's text.
  chat = await startTestChat({ CHAT_CONTEXT_MAX_CHARS: '1000' });
  alice = await seedCaller(chat.db);
  first = await seedReport(chat.db, alice.tenant_id, {
    title: 'Survey of 12 Elm Road',
    sections: [
      { name: 'Roof', text: 'The roof covering is natural slate; several slates have slipped.' },
      { name: 'Garden', text: filler('garden') },
    ],
  });
  second = await seedReport(chat.db, alice.tenant_id, {
    title: 'Survey of 14 Elm Road',
    sections: [
      { name: 'Roof', text: 'The roof is covered with concrete tiles in good order.' },
      { name: 'Kitchen', text: filler('kitchen') },
    ],
  });
});
afterAll(async () => {
  await chat?.close();
});

describe('a compare turn over reports too long for their full text', () => {
  it('answers from one multi_report retrieval, each chunk titled with its report', async () => {
    const turn = await runTurn(chat.nats, alice, {
      report_id: first.id,
      message: 'Which roof covering is in better order, slate or concrete tiles?',
      compare_report_ids: [first.id, second.id],
    });
    expect(turn.start).toMatchObject({ mode: 'compare', retrieval_log_id: expect.any(String) });
    const used = turn.start!.chunks_used.map((c) => c.section_name);
    expect(used).toContain('Roof');
    const system = sentMessages(
      [...chat.openai.requests].reverse().find((r) => (r.body as { stream?: boolean }).stream)!
        .body,
    )[0]!.content;
    expect(system).toContain('title="Survey of 12 Elm Road: ');
    expect(system).toContain('title="Survey of 14 Elm Road: ');
    expect(system).toContain('concrete tiles in good order');
    const rows = await rowsOnceWritten<{ scope_type: string }>(
      chat.db.pool,
      'SELECT scope_type FROM retrieval_logs WHERE id = $1',
      [turn.start!.retrieval_log_id],
    );
    expect(rows[0]!.scope_type).toBe('multi_report');
  });
});
