import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHtml, freePort, sampleReportSpec } from '@reports/test-support';
import { startSystem, type RunningSystem, type ServiceName } from './support/system.js';
import { readEvents, signIn, upload, type Session } from './support/client.js';
import { chat } from './support/chat.js';
import {
  descendants,
  printTree,
  spanTree,
  startOtlpReceiver,
  type OtlpReceiver,
  type SpanNode,
} from './support/otlp.js';

/** A string that must never reach a log line: it is only in the document's text. */
const CANARY = 'CANARY-QUOLL-7F3C-DOCUMENT-TEXT';
const STAGE_SERVICES = ['ingestion', 'annotation', 'embedding'] as const;

let otlp: OtlpReceiver;
let system: RunningSystem;
let user: Session;
let reportId: string;
let traceId: string;
const metricsPorts = {} as Record<(typeof STAGE_SERVICES)[number], number>;

async function until<T>(what: string, fn: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  for (const name of STAGE_SERVICES) metricsPorts[name] = await freePort();
  system = await startSystem({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      // Send spans every 200 ms instead of every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
    serviceEnv: Object.fromEntries(
      STAGE_SERVICES.map((name) => [name, { METRICS_PORT: String(metricsPorts[name]) }]),
    ) as Partial<Record<ServiceName, Record<string, string>>>,
  });
  user = await signIn(system, 'observer@example.com');
  const html = buildHtml(sampleReportSpec({ sections: 4, paragraphsPerSection: 2, seed: 11 }))
    .toString('utf8')
    .replace('</body>', `<p>The inspector noted ${CANARY} in the loft.</p></body>`);
  const res = await upload(system, user, {
    bytes: Buffer.from(html),
    filename: 'traced.html',
    type: 'text/html',
  });
  expect(res.status).toBe(202);
  reportId = res.body.id;
  const events = await readEvents(system, user, reportId);
  expect(events.at(-1)?.event).toBe('ReportReady');
  const ready = await until('the span of the ReportReady publish', () =>
    otlp.spans.find(
      (s) => s.name === 'publish ReportReady' && s.attributes['report.id'] === reportId,
    ),
  );
  traceId = ready.traceId;
});
afterAll(async () => {
  await system?.stop();
  await otlp?.close();
});

/** The first node below `node` whose span is named `name`. */
function below(node: SpanNode, name: string): SpanNode {
  const found = descendants(node).find((n) => n !== node && n.span.name === name);
  if (!found) throw new Error(`no span "${name}" below "${node.span.name}"`);
  return found;
}

describe('one upload in one trace', () => {
  it('runs from the HTTP request through NATS to every stage, each with its database calls and the publish of the next event', async () => {
    // Spans of the last stage arrive a moment after its event: wait for the whole tree.
    let tree: SpanNode | null = null;
    await until('the finalize stage spans', () => {
      tree = spanTree(otlp.spans, traceId);
      const names = tree ? descendants(tree).map((n) => n.span.name) : [];
      return names.includes('process stage-finalize') && names.includes('publish ReportReady')
        ? true
        : undefined;
    });
    const root = tree! as SpanNode;
    process.stdout.write(
      `span tree of one upload (trace ${traceId}):\n${printTree(root).join('\n')}\n`,
    );

    expect(root.span.service).toBe('gateway');
    expect(root.span.kind).toBe(2); // SERVER
    expect(root.span.name).toMatch(/^POST/);

    const chain: Array<[string, string, ServiceName]> = [
      ['ReportUploaded', 'stage-scan', 'ingestion'],
      ['ReportScanned', 'stage-parse', 'ingestion'],
      ['ReportParsed', 'stage-annotate', 'annotation'],
      ['FiguresAnnotated', 'stage-embed', 'embedding'],
      ['ChunksEmbedded', 'stage-finalize', 'ingestion'],
    ];
    let at = root;
    for (const [event, durable, service] of chain) {
      const publish = below(at, `publish ${event}`);
      expect(publish.span.kind, `publish ${event}`).toBe(4); // PRODUCER
      // The stage's consume span is a child of the publish: the context came in the headers.
      const consume = publish.children.find((c) => c.span.name === `process ${durable}`);
      expect(consume, `process ${durable} under publish ${event}`).toBeDefined();
      expect(consume!.span.service).toBe(service);
      expect(consume!.span.kind).toBe(5); // CONSUMER
      expect(consume!.span.attributes['report.id']).toBe(reportId);
      const db = descendants(consume!).filter((n) => n.span.name.startsWith('pg.query'));
      expect(db.length, `database calls of ${durable}`).toBeGreaterThan(0);
      at = consume!;
    }
    expect(below(at, 'publish ReportReady').span.service).toBe('ingestion');
  });

  it('writes the trace, tenant and report ids on the stage log lines of the report', () => {
    const stageLines = system.logs.filter(
      (l) => l.json?.report_id === reportId && l.json?.msg === 'stage done',
    );
    expect(stageLines.map((l) => l.json?.stage).sort()).toEqual(
      ['annotate', 'embed', 'finalize', 'parse', 'scan'].sort(),
    );
    for (const line of stageLines) {
      expect(line.json?.trace_id).toBe(traceId);
      expect(line.json?.tenant_id).toBe(user.user.personal_tenant_id);
    }
    const requestLines = system.logs.filter(
      (l) =>
        l.service === 'gateway' &&
        l.json?.msg === 'request completed' &&
        l.json?.report_id === reportId,
    );
    expect(requestLines.length).toBeGreaterThan(0);
    for (const line of requestLines)
      expect(line.json?.tenant_id).toBe(user.user.personal_tenant_id);
  });

  it('never logs the document text or a token', () => {
    const all = system.logs.map((l) => l.line).join('\n');
    expect(all).not.toContain(CANARY);
    expect(all).not.toContain(user.token);
    expect(all).not.toContain(user.refresh);
  });
});

describe('one chat turn in one trace', () => {
  it('runs from the HTTP request to the chat service over NATS, with its retrieval and database calls', async () => {
    const answer = await chat(system, user, {
      report_id: reportId,
      message: 'What did the inspector note in the loft?',
    });
    expect(answer.status).toBe(200);
    expect(answer.end).not.toBeNull();
    const turn = await until('the chat turn span', () =>
      otlp.spans.find((s) => s.name === 'chat turn' && s.attributes['report.id'] === reportId),
    );
    let tree: SpanNode | null = null;
    await until('the whole chat trace', () => {
      tree = spanTree(otlp.spans, turn.traceId);
      return tree && tree.span.service === 'gateway' ? true : undefined;
    });
    const root = tree! as SpanNode;
    process.stdout.write(
      `span tree of one chat turn (trace ${turn.traceId}):\n${printTree(root).join('\n')}\n`,
    );
    expect(root.span.name).toMatch(/^POST/);
    const turnNode = below(root, 'chat turn');
    expect(turnNode.span.service).toBe('chat');
    const nodes = descendants(turnNode);
    expect(nodes.some((n) => n.span.service === 'chat' && n.span.name.startsWith('pg.query'))).toBe(
      true,
    );
    expect(nodes.some((n) => n.span.service === 'retrieval')).toBe(true);
  });
});

describe('one POST /retrieve in one trace', () => {
  it('runs from the HTTP request through the NATS request to the retrieval service and its database calls', async () => {
    const started = otlp.spans.length;
    const res = await fetch(`${system.url}/retrieve`, {
      method: 'POST',
      headers: user.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({
        query: 'What did the inspector note in the loft?',
        scope: { type: 'folder', report_id: reportId },
      }),
    });
    expect(res.status).toBe(200);
    // The retrieval service's side of the call, in the trace of this request (not the chat's).
    const isServer = (s: { service: string; name: string; kind: number }) =>
      s.service === 'retrieval' && s.name === 'rpc svc.retrieval.retrieve' && s.kind === 2;
    let tree: SpanNode | null = null;
    await until('the retrieve trace', () => {
      const server = otlp.spans.slice(started).find(isServer);
      if (!server) return undefined;
      const candidate = spanTree(otlp.spans, server.traceId);
      const all = candidate ? descendants(candidate) : [];
      if (candidate?.span.service !== 'gateway' || !all.some((n) => isServer(n.span)))
        return undefined;
      tree = candidate;
      return true;
    });
    const root = tree! as SpanNode;
    process.stdout.write(
      `span tree of one POST /retrieve (trace ${root.span.traceId}):\n${printTree(root).join('\n')}\n`,
    );
    expect(root.span.name).toMatch(/^POST/);
    expect(root.span.kind).toBe(2); // SERVER
    const client = below(root, 'rpc svc.retrieval.retrieve');
    expect(client.span.service).toBe('gateway');
    expect(client.span.kind).toBe(3); // CLIENT
    // The retrieval service continues the gateway's trace: its span is the child of the request.
    const server = client.children.find((c) => isServer(c.span));
    expect(server, 'the retrieval span under the gateway request span').toBeDefined();
    expect(
      descendants(server!).some(
        (n) => n.span.service === 'retrieval' && n.span.name.startsWith('pg.query'),
      ),
    ).toBe(true);
  });
});

describe('/metrics on every service', () => {
  async function scrape(url: string): Promise<string> {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  }

  it('shows HTTP latency by route on the gateway', async () => {
    const text = await scrape(`${system.url}/metrics`);
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/ingest",status_code="202"\} [1-9]/,
    );
    expect(text).toMatch(/route="\/ingest\/:report_id\/events"/);
  });

  it('shows stage duration and outcome, consumer lag and provider usage on the stage services', async () => {
    const texts = Object.fromEntries(
      await Promise.all(
        STAGE_SERVICES.map(
          async (name) =>
            [name, await scrape(`http://127.0.0.1:${metricsPorts[name]}/metrics`)] as const,
        ),
      ),
    );
    for (const stage of ['scan', 'parse', 'finalize'])
      expect(texts.ingestion).toMatch(
        new RegExp(`stage_duration_seconds_count\\{stage="${stage}",outcome="done"\\} [1-9]`),
      );
    expect(texts.annotation).toMatch(
      /stage_duration_seconds_count\{stage="annotate",outcome="done"\} [1-9]/,
    );
    expect(texts.embedding).toMatch(
      /stage_duration_seconds_count\{stage="embed",outcome="done"\} [1-9]/,
    );
    for (const [name, durable] of [
      ['ingestion', 'stage-parse'],
      ['annotation', 'stage-annotate'],
      ['embedding', 'stage-embed'],
    ] as const) {
      expect(texts[name]).toContain(
        `consumer_pending_messages{stream="REPORTS",consumer="${durable}"}`,
      );
      expect(texts[name]).toContain(
        `consumer_ack_pending_messages{stream="REPORTS",consumer="${durable}"}`,
      );
      expect(texts[name]).toContain(
        `consumer_redelivered_messages{stream="REPORTS",consumer="${durable}"}`,
      );
    }
    expect(texts.embedding).toMatch(
      /provider_request_duration_seconds_count\{provider="local",model="[^"]+",operation="embed",outcome="ok"\} [1-9]/,
    );
    expect(texts.embedding).toMatch(
      /provider_tokens_total\{provider="local",model="[^"]+",kind="tokens"\} [1-9]/,
    );
  });

  it('answers the Kubernetes probes on the operations port', async () => {
    for (const name of STAGE_SERVICES) {
      expect((await fetch(`http://127.0.0.1:${metricsPorts[name]}/healthz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${metricsPorts[name]}/readyz`)).status).toBe(200);
    }
  });
});
