import { describe, expect, it } from 'vitest';
import { runFuzz } from './fuzz/run.js';

// The bounded pass of `npm run fuzz` that CI runs: every operation of openapi.json, a few
// hostile cases each, from a fixed seed so a failure can be replayed with
// `npm run fuzz -- --seed 20261124 --per-operation 24`.
describe('fuzz (bounded pass)', () => {
  it('answers every hostile request without a 5xx or a hang, and leaves no orphan', async () => {
    const report = await runFuzz({
      seed: 20261124,
      perOperation: 24,
      deadlineMs: 30_000,
      concurrency: 4,
      settleMs: 60_000,
    });
    expect(report.requests).toBe(report.operations * 24);
    expect([...report.findings, ...report.orphans]).toEqual([]);
  });
});
