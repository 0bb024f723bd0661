import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatHeaders, sseEvent } from '../src/chat/sse.js';
import {
  freshIp,
  startTestGateway,
  type TestGateway,
  type TestSession,
} from './support/gateway.js';

// The gateway's chat routes without a chat service: what it answers on its own.
let gw: TestGateway;
let alice: TestSession;

beforeAll(async () => {
  gw = await startTestGateway();
  alice = await gw.signIn('alice@example.com');
});
afterAll(async () => {
  await gw?.close();
});

const post = (payload: Record<string, unknown>, headers = alice.headers()) =>
  gw.app.inject({ method: 'POST', url: '/chat', payload, headers, remoteAddress: freshIp() });

describe('POST /chat at the gateway', () => {
  it('answers 422 for a body the spec does not allow, before asking the chat service', async () => {
    const report = randomUUID();
    for (const body of [
      { report_id: report },
      { report_id: 'nope', message: 'x' },
      { report_id: report, message: 'x'.repeat(8001) },
      {
        report_id: report,
        message: 'x',
        report_json: { a: 1 },
        compare_report_ids: [randomUUID(), randomUUID()],
      },
      { report_id: report, message: 'x', section: 'Roof', report_json: { a: 1 } },
      { report_id: report, message: 'x', report_json: { blob: 'y'.repeat(600 * 1024) } },
    ]) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('answers 503 as JSON when no chat service is running', async () => {
    const res = await post({ report_id: randomUUID(), message: 'Roof?' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: 'service_unavailable',
      detail: 'the chat service is unavailable; try again',
    });
  });

  it('answers 401 without a token', async () => {
    expect((await post({ report_id: randomUUID(), message: 'x' }, {})).statusCode).toBe(401);
  });
});

describe('the SSE framing', () => {
  it('writes one event per message with its JSON on one data line, blank lines of markdown kept inside', () => {
    expect(sseEvent('chunk', { text: 'a\n\nb' })).toBe(
      'event: chunk\ndata: {"text":"a\\n\\nb"}\n\n',
    );
  });

  it('sends X-Retrieval-Log-Id in rag mode only', () => {
    const start = {
      conversation_id: randomUUID(),
      user_message_id: randomUUID(),
      message_id: randomUUID(),
      model: 'gpt-4o-mini',
      provider: 'openai' as const,
      retrieval_log_id: randomUUID(),
      fallback_reason: null,
      rewritten_query: 'q',
      chunks_used: [],
      memory_used: [],
    };
    expect(chatHeaders({ ...start, mode: 'rag' })).toMatchObject({
      'x-chat-mode': 'rag',
      'x-llm-model': 'gpt-4o-mini',
      'x-conversation-id': start.conversation_id,
      'x-retrieval-log-id': start.retrieval_log_id,
    });
    expect(chatHeaders({ ...start, mode: 'full_fallback' })).not.toHaveProperty(
      'x-retrieval-log-id',
    );
  });
});
