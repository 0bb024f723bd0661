import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/JSON exporter sends it, with the service that made it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  startNs: bigint;
}

export interface OtlpReceiver {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  attributes?: KeyValue[];
}
interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

function value(v: AnyValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.boolValue !== undefined) return v.boolValue;
  return v.doubleValue ?? '';
}

function attrs(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, value(kv.value)]));
}

/**
 * A trace collector on loopback speaking OTLP/HTTP with JSON bodies (what
 * `@opentelemetry/exporter-trace-otlp-http` sends): `POST /v1/traces`, answered
 * with an empty ExportTraceServiceResponse. Ids arrive as hex in JSON.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
        for (const rs of body.resourceSpans ?? []) {
          const service = String(attrs(rs.resource?.attributes)['service.name'] ?? 'unknown');
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId || null,
                name: s.name,
                kind: s.kind,
                attributes: attrs(s.attributes),
                startNs: BigInt(s.startTimeUnixNano),
              });
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface SpanNode {
  span: ReceivedSpan;
  children: SpanNode[];
}

/** The spans of one trace as a tree (children in start order), from its root. */
export function spanTree(spans: ReceivedSpan[], traceId: string): SpanNode | null {
  const mine = spans.filter((s) => s.traceId === traceId);
  const nodes = new Map(mine.map((s) => [s.spanId, { span: s, children: [] as SpanNode[] }]));
  let root: SpanNode | null = null;
  for (const node of nodes.values()) {
    const parent = node.span.parentSpanId ? nodes.get(node.span.parentSpanId) : undefined;
    if (parent) parent.children.push(node);
    else if (!root || node.span.startNs < root.span.startNs) root = node;
  }
  for (const node of nodes.values())
    node.children.sort((a, b) => (a.span.startNs < b.span.startNs ? -1 : 1));
  return root;
}

/** The tree as indented lines: `service: name`. */
export function printTree(node: SpanNode, depth = 0, out: string[] = []): string[] {
  out.push(`${'  '.repeat(depth)}${node.span.service}: ${node.span.name}`);
  for (const child of node.children) printTree(child, depth + 1, out);
  return out;
}

/** Every node below `node` (itself included), depth first. */
export function descendants(node: SpanNode): SpanNode[] {
  return [node, ...node.children.flatMap(descendants)];
}
