import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from '@reports/platform';

/** Chat turns by mode and how they ended (`stop`, `length`, `cancelled`, `error`, `failed`...). */
export const chatTurns = new Counter({
  name: 'chat_turns_total',
  help: 'Chat turns by mode and outcome (the finish reason, or failed when the turn broke before an answer)',
  labelNames: ['mode', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** From the turn's start in the chat service to the first piece of answer sent. */
export const chatFirstText = new Histogram({
  name: 'chat_first_text_seconds',
  help: 'Time from a chat turn reaching the chat service to the first piece of its answer, by provider and mode',
  labelNames: ['provider', 'mode'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  registers: [metricsRegistry],
});
