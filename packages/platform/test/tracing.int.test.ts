import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { z } from 'zod';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind } from '@opentelemetry/api';
import { parseEvent, rpcOperation } from '@reports/contracts';
import { startNatsServer, type TestNatsServer } from '../../test-support/src/nats.js';
import {
  connectNats,
  currentLogContext,
  ensureDurableConsumer,
  newEvent,
  provisionReportsStream,
  publishEvent,
  requestRpc,
  serveRpc,
  startConsumer,
  startTracing,
  tracer,
  type Nats,
} from '../src/index.js';

const exporter = new InMemorySpanExporter();
startTracing({ serviceName: 'tracing-test', exporter });
const logger = pino({ level: 'silent' });
const Echo = rpcOperation(
  'test.trace.echo',
  z.object({ text: z.string() }),
  z.object({ text: z.string() }),
);

let server: TestNatsServer;
let nats: Nats;

beforeAll(async () => {
  server = await startNatsServer();
  nats = await connectNats(server.url, 'tracing-test');
  await provisionReportsStream(nats.jsm, 1);
});
afterAll(async () => {
  await nats?.nc.close();
  await server?.stop();
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const named = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name);

async function until<T>(fn: () => T | undefined): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

describe('trace context across NATS', () => {
  it('makes the consume span of a message the child of its publish span, and the next publish its child', async () => {
    const tenant = randomUUID();
    const report = randomUUID();
    const origin = {
      tenant_id: tenant,
      report_id: report,
      target_kind: 'report' as const,
      target_id: report,
      generation: 1,
      correlation_id: report,
      causation_id: null,
    };
    await ensureDurableConsumer(nats.jsm, {
      stream: 'REPORTS',
      durable: 'trace-test',
      filterSubject: 'reports.*.*.ReportUploaded',
      ackWaitMs: 5000,
      maxDeliver: 3,
      maxAckPending: 8,
    });
    let seenContext: unknown;
    const handle = await startConsumer({
      js: nats.js,
      stream: 'REPORTS',
      durable: 'trace-test',
      concurrency: 1,
      maxDeliver: 2,
      ackWaitMs: 5000,
      timeoutMs: 5000,
      logger,
      decode: (msg) => parseEvent(msg.json()),
      async handle(event) {
        seenContext = { ...currentLogContext() };
        await publishEvent(
          nats.js,
          newEvent(
            'StageStarted',
            { ...origin, causation_id: event.id },
            { stage: 'scan', attempt: 1 },
          ),
          randomUUID(),
        );
        return { outcome: 'done' };
      },
    });
    await tracer().startActiveSpan('upload', async (root) => {
      await publishEvent(
        nats.js,
        newEvent('ReportUploaded', origin, {
          filename: 'a.html',
          content_type: 'text/html',
          size_bytes: 1,
          object_key: 'k',
          sha256: 'a'.repeat(64),
          title: null,
        }),
        randomUUID(),
      );
      root.end();
    });
    const next = await until(() => named('publish StageStarted'));
    await handle.stop();

    const root = named('upload')!;
    const publish = named('publish ReportUploaded')!;
    const consume = named('process trace-test')!;
    expect(publish.kind).toBe(SpanKind.PRODUCER);
    expect(consume.kind).toBe(SpanKind.CONSUMER);
    expect(parentOf(publish)).toBe(root.spanContext().spanId);
    expect(parentOf(consume)).toBe(publish.spanContext().spanId);
    expect(parentOf(next)).toBe(consume.spanContext().spanId);
    for (const s of [publish, consume, next])
      expect(s.spanContext().traceId).toBe(root.spanContext().traceId);
    // The handler ran with the tenant and report of the subject as its log context.
    expect(seenContext).toEqual({ tenant_id: tenant, report_id: report });
  });

  it('continues the caller\u2019s trace in the service that answers a request', async () => {
    const srv = serveRpc(nats.nc, Echo, { queue: 'echo', logger }, async (req) => {
      await tracer().startActiveSpan('inside', async (s) => s.end());
      return { text: req.text };
    });
    await nats.nc.flush();
    await tracer().startActiveSpan('caller', async (root) => {
      await requestRpc(nats.nc, Echo, { text: 'hi' });
      root.end();
    });
    await srv.stop();
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'rpc test.trace.echo');
    const client = spans.find((s) => s.kind === SpanKind.CLIENT)!;
    const serverSpan = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(parentOf(client)).toBe(named('caller')!.spanContext().spanId);
    expect(parentOf(serverSpan)).toBe(client.spanContext().spanId);
    expect(parentOf(named('inside')!)).toBe(serverSpan.spanContext().spanId);
  });
});
