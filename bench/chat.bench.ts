// Chat benchmark (issue 5): time to first byte of an answer through the gateway (POST /chat:
// gateway -> NATS -> chat service -> retrieval service -> model stream -> NATS -> SSE) against a
// direct streaming call to the same fake model server, in the same run, pair by pair. Prints
// p50/p95 of both and of the overhead; writes bench/results/chat-*.json. No assertions on
// timing: it fails only when the system does (an answer that is not a complete stream).
import { execFileSync } from 'node:child_process';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { OpenAIChatModel } from '@reports/providers';
import { buildHtml, sampleReportSpec, startFakeChatModel } from '@reports/test-support';
import { startSystem, type RunningSystem } from '../test/support/system.js';
import { freshIp, signIn, upload, waitForStatus, type Session } from '../test/support/client.js';
import { sseMessages } from '../test/support/sse.js';
import { distribution, type Distribution } from './support/stats.js';
import { intFromEnv } from './support/env.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = path.join(ROOT, 'bench/results');

/** Measured pairs (one direct call and one turn through the gateway each). */
const PAIRS = intFromEnv('BENCH_CHAT_PAIRS', 200, 10);
const WARMUP = intFromEnv('BENCH_CHAT_WARMUP', 20, 0);
const MODEL = 'gpt-4o-mini';
/** About 120 tokens, streamed 16 characters a chunk, as the fake does by default. */
const ANSWER =
  'The roof covering is natural slate laid on battens; several slates have slipped near the chimney ' +
  'stack and should be refixed [C1]. The valley gutters show moss growth which holds moisture [C2]. ' +
  'The flashing around the chimney is lead and in fair order [C3].';
/** Four words or more: retrieval adds no HyDE call, as for most real questions. */
const QUESTIONS = [
  'what is the condition of the roof slopes',
  'are there signs of damp in the walls',
  'is the electrical installation safe to use',
  'what should be done about the windows',
  'how old is the heating system and boiler',
];

/**
 * One direct streaming call to the fake, through the same adapter the chat service uses (the
 * openai SDK): time to the first text and to the end of the answer.
 */
async function direct(model: OpenAIChatModel, question: string) {
  const started = performance.now();
  let firstText: number | null = null;
  let text = '';
  for await (const event of model.stream({
    messages: [
      { role: 'system', content: 'Answer from the documents.' },
      { role: 'user', content: question },
    ],
    documents: [],
    query: question,
    maxTokens: 1500,
  })) {
    if (event.type === 'delta') {
      firstText ??= performance.now();
      text += event.text;
    }
  }
  if (text !== ANSWER || firstText === null) throw new Error('direct call: incomplete answer');
  return { first_text_ms: firstText - started, total_ms: performance.now() - started };
}

/** One turn through the gateway, read as a browser's fetch reads an SSE body. */
async function throughGateway(
  system: RunningSystem,
  session: Session,
  reportId: string,
  question: string,
) {
  const started = performance.now();
  const res = await fetch(`${system.url}/chat`, {
    method: 'POST',
    // The route allows 30 a minute per client: every turn from an address of its own.
    headers: session.headers({ 'content-type': 'application/json', 'x-forwarded-for': freshIp() }),
    body: JSON.stringify({ report_id: reportId, message: question }),
  });
  const headersAt = performance.now();
  if (res.status !== 200 || !res.body)
    throw new Error(`POST /chat answered ${res.status}: ${await res.text()}`);
  const mode = res.headers.get('x-chat-mode');
  let firstText: number | null = null;
  let text = '';
  let ended = false;
  for await (const { event, data } of sseMessages(res.body as AsyncIterable<Uint8Array>)) {
    if (event === 'chunk' && data) {
      firstText ??= performance.now();
      text += (JSON.parse(data) as { text: string }).text;
    }
    if (event === 'end') ended = true;
    if (event === 'error') throw new Error(`POST /chat error event: ${data}`);
  }
  if (!ended || text !== ANSWER || firstText === null)
    throw new Error('POST /chat: incomplete answer');
  return {
    mode,
    first_byte_ms: headersAt - started,
    first_text_ms: firstText - started,
    total_ms: performance.now() - started,
  };
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  const startedAt = new Date();
  const fake = await startFakeChatModel({ flavour: 'openai', answer: () => ANSWER });
  let system: RunningSystem | undefined;
  const stop = async () => {
    await system?.stop().catch(() => undefined);
    await fake.close().catch(() => undefined);
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    const env = {
      LLM_PROVIDER: 'openai',
      LLM_MODEL: MODEL,
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: `${fake.url}/v1`,
    };
    system = await startSystem({ env });
    const session = await signIn(system, 'bench@example.com');
    const report = await upload(
      system,
      session,
      {
        bytes: buildHtml(sampleReportSpec({ sections: 10, paragraphsPerSection: 4 })),
        filename: 'survey.html',
        type: 'text/html',
      },
      'Bench survey',
    );
    if (report.status !== 202) throw new Error(`upload answered ${report.status}`);
    await waitForStatus(system, session, report.body.id, 'ready', 120_000);
    const client = new OpenAIChatModel({
      apiKey: 'sk-bench',
      baseURL: `${fake.url}/v1`,
      model: MODEL,
      maxRetries: 0,
    });

    for (let i = 0; i < WARMUP; i++) {
      await direct(client, QUESTIONS[i % QUESTIONS.length]!);
      await throughGateway(system, session, report.body.id, QUESTIONS[i % QUESTIONS.length]!);
    }
    const pairs: Array<{
      direct: Awaited<ReturnType<typeof direct>>;
      gateway: Awaited<ReturnType<typeof throughGateway>>;
    }> = [];
    for (let i = 0; i < PAIRS; i++) {
      const question = QUESTIONS[i % QUESTIONS.length]!;
      // Alternate which goes first, so neither always runs on a warmer machine.
      if (i % 2 === 0) {
        const d = await direct(client, question);
        pairs.push({
          direct: d,
          gateway: await throughGateway(system, session, report.body.id, question),
        });
      } else {
        const g = await throughGateway(system, session, report.body.id, question);
        pairs.push({ direct: await direct(client, question), gateway: g });
      }
    }
    const modes = [...new Set(pairs.map((p) => p.gateway.mode))];
    const of = (pick: (p: (typeof pairs)[number]) => number) => distribution(pairs.map(pick));
    const result = {
      date: startedAt.toISOString(),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      cpu_count: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? 'unknown',
      commit: git(['rev-parse', '--short', 'HEAD']),
      dirty: git(['status', '--porcelain']) !== '',
      config: {
        pairs: PAIRS,
        warmup: WARMUP,
        model: MODEL,
        answer_chars: ANSWER.length,
        fake_chunk_chars: 16,
        system_env: env,
      },
      modes,
      direct: {
        first_text_ms: of((p) => p.direct.first_text_ms),
        total_ms: of((p) => p.direct.total_ms),
      },
      gateway: {
        first_byte_ms: of((p) => p.gateway.first_byte_ms),
        first_text_ms: of((p) => p.gateway.first_text_ms),
        total_ms: of((p) => p.gateway.total_ms),
      },
      overhead: {
        /** Per pair: first text through the gateway minus first text of the direct call. */
        first_text_ms: of((p) => p.gateway.first_text_ms - p.direct.first_text_ms),
        total_ms: of((p) => p.gateway.total_ms - p.direct.total_ms),
      },
      aim: { overhead_first_text_p95_ms: 50 },
      total_run_s: Math.round((performance.now() - runStarted) / 100) / 10,
    };

    const row = (name: string, d: Distribution) =>
      `${name.padEnd(42)} ${String(d.p50).padStart(8)} ${String(d.p95).padStart(8)} ${String(d.p99).padStart(8)} ${String(d.max).padStart(8)}`;
    console.log(
      `\nchat: ${PAIRS} pairs (direct call, then POST /chat; order alternating), mode ${modes.join(', ')}`,
    );
    console.log(
      `${'ms'.padEnd(42)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}`,
    );
    console.log(row('direct: first text', result.direct.first_text_ms));
    console.log(row('gateway: first text', result.gateway.first_text_ms));
    console.log(row('overhead (gateway - direct): first text', result.overhead.first_text_ms));
    console.log(row('gateway: response headers (start event)', result.gateway.first_byte_ms));
    console.log(row('direct: whole answer', result.direct.total_ms));
    console.log(row('gateway: whole answer', result.gateway.total_ms));
    console.log(
      `aim: overhead p95 under 50 ms -> ${result.overhead.first_text_ms.p95} ms; node ${process.version}, ` +
        `${result.cpu_count} CPUs, commit ${result.commit}${result.dirty ? ' (dirty)' : ''}`,
    );

    await mkdir(RESULTS_DIR, { recursive: true });
    const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
    const json = `${JSON.stringify(result, null, 2)}\n`;
    for (const name of [`chat-${stamp}.json`, 'chat-latest.json']) {
      const target = path.join(RESULTS_DIR, name);
      await writeFile(`${target}.tmp`, json);
      await rename(`${target}.tmp`, target);
    }
    console.log(
      `chat: wrote bench/results/chat-${stamp}.json and bench/results/chat-latest.json (total ${result.total_run_s} s)`,
    );
  } finally {
    await stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(
      `chat: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
