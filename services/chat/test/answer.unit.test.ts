import { describe, expect, it } from 'vitest';
import { ChatModelError, type ChatModel, type ChatStreamEvent } from '@reports/providers';
import { streamAnswer, withIdleTimeout } from '../src/turn/answer.js';

/** A model adapter whose stream is scripted (the real adapters are tested against local servers). */
function scripted(events: Array<ChatStreamEvent | Error | 'stall'>): ChatModel {
  return {
    provider: 'local',
    model: 'scripted',
    extractive: true,
    writer: null,
    async *stream(request) {
      for (const e of events) {
        if (e === 'stall') {
          if (!request.signal?.aborted)
            await new Promise((resolve) =>
              request.signal?.addEventListener('abort', resolve, { once: true }),
            );
          return;
        }
        if (e instanceof Error) throw e;
        yield e;
      }
    },
  };
}

const request = { messages: [], documents: [], query: 'q', maxTokens: 10 };

describe('streaming an answer', () => {
  it('sends every piece and ends with the model finish reason and usage', async () => {
    const sent: string[] = [];
    const outcome = await streamAnswer(
      scripted([
        { type: 'delta', text: 'Slate ' },
        { type: 'delta', text: 'roof.' },
        {
          type: 'done',
          finishReason: 'stop',
          usage: { inputTokens: 3, outputTokens: 2 },
          model: 'm-1',
        },
      ]),
      request,
      { idleTimeoutMs: 5000, canary: null, signal: new AbortController().signal },
      (t) => sent.push(t),
    );
    expect(sent.join('')).toBe('Slate roof.');
    expect(outcome).toMatchObject({
      text: 'Slate roof.',
      finishReason: 'stop',
      error: null,
      answeredBy: 'm-1',
    });
  });

  it('keeps what was sent before a model failure, with the failure', async () => {
    const outcome = await streamAnswer(
      scripted([{ type: 'delta', text: 'Half an ans' }, new ChatModelError('interrupted', 'cut')]),
      request,
      { idleTimeoutMs: 5000, canary: null, signal: new AbortController().signal },
      () => undefined,
    );
    expect(outcome).toMatchObject({ text: 'Half an ans', finishReason: 'error' });
    expect(outcome.error?.message).toBe('cut');
  });

  it('gives up on a model that sends nothing, as a timeout', async () => {
    const outcome = await streamAnswer(
      scripted(['stall']),
      request,
      { idleTimeoutMs: 50, canary: null, signal: new AbortController().signal },
      () => undefined,
    );
    expect(outcome.finishReason).toBe('error');
    expect(outcome.error?.reason).toBe('timeout');
    expect(outcome.error?.message).toMatch(/sent nothing/);
  });

  it('ends as cancelled when the turn is cancelled', async () => {
    const controller = new AbortController();
    const outcome = await streamAnswer(
      scripted([{ type: 'delta', text: 'Begin' }, 'stall']),
      request,
      { idleTimeoutMs: 5000, canary: null, signal: controller.signal },
      () => controller.abort(),
    );
    expect(outcome).toMatchObject({ text: 'Begin', finishReason: 'cancelled', error: null });
  });

  it('redacts the canary from what is sent and kept', async () => {
    const sent: string[] = [];
    const outcome = await streamAnswer(
      scripted([
        { type: 'delta', text: 'the marker is CAN' },
        { type: 'delta', text: 'ARY-9 ok' },
        { type: 'done', finishReason: 'stop', usage: null, model: 'm' },
      ]),
      request,
      { idleTimeoutMs: 5000, canary: 'CANARY-9', signal: new AbortController().signal },
      (t) => sent.push(t),
    );
    expect(sent.join('')).toBe('the marker is [redacted] ok');
    expect(outcome.text).toBe('the marker is [redacted] ok');
    expect(outcome.redactions).toBe(1);
  });

  it('passes a source through until it ends', async () => {
    async function* three() {
      yield 1;
      yield 2;
      yield 3;
    }
    const seen: number[] = [];
    for await (const n of withIdleTimeout(three(), 1000, () => undefined)) seen.push(n);
    expect(seen).toEqual([1, 2, 3]);
  });
});
