import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake provider does with one request, in place of its normal answer. */
export type FakeBehaviour =
  /** Answers with this status, body and headers (e.g. 429 with `retry-after`, 500). */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answers: the connection stays open until the client gives up or the server closes. */
  | { kind: 'hang' }
  /** Answers 200 with this raw text (a body that is not what the protocol promises). */
  | { kind: 'raw'; body: string; contentType?: string }
  /** Answers 200 with this JSON instead of the generated success. */
  | { kind: 'json'; body: unknown };

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (null when the body was not JSON). */
  body: unknown;
}

export interface FakeRoute {
  method: 'GET' | 'POST';
  path: string;
  /** The normal answer: status 200 with this JSON. */
  success(request: RecordedRequest): unknown;
}

/** A local HTTP server on 127.0.0.1 that answers like a provider's API. */
export interface FakeServer {
  /** e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** Queues behaviours for the next requests to `path`, used once each, in order. */
  script(path: string, ...behaviours: FakeBehaviour[]): void;
  /**
   * Answers every request to `path` that `when` matches with `behaviour`, until
   * `reset()`; queued behaviours come first.
   */
  rule(path: string, when: (request: RecordedRequest) => boolean, behaviour: FakeBehaviour): void;
  /** Forgets queued behaviours and rules (not the recorded requests). */
  reset(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string>) {
  res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/**
 * Starts a fake provider with the given routes on a free loopback port. Unknown
 * paths answer 404 like the real APIs do.
 */
export async function startFakeServer(routes: FakeRoute[]): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const scripts = new Map<string, FakeBehaviour[]>();
  const rules: Array<{
    path: string;
    when: (request: RecordedRequest) => boolean;
    behaviour: FakeBehaviour;
  }> = [];
  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = null;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const route = routes.find((r) => r.method === req.method && r.path === path);
      if (!route) {
        send(res, 404, JSON.stringify({ detail: 'Not Found' }), {
          'content-type': 'application/json',
        });
        return;
      }
      const behaviour =
        scripts.get(path)?.shift() ??
        rules.find((r) => r.path === path && r.when(recorded))?.behaviour;
      switch (behaviour?.kind) {
        case 'hang':
          return;
        case 'status':
          send(
            res,
            behaviour.status,
            JSON.stringify(behaviour.body ?? { message: `status ${behaviour.status}` }),
            {
              'content-type': 'application/json',
              ...behaviour.headers,
            },
          );
          return;
        case 'raw':
          send(res, 200, behaviour.body, {
            'content-type': behaviour.contentType ?? 'application/json',
          });
          return;
        case 'json':
          send(res, 200, JSON.stringify(behaviour.body), { 'content-type': 'application/json' });
          return;
        case undefined:
          send(res, 200, JSON.stringify(await route.success(recorded)), {
            'content-type': 'application/json',
          });
          return;
        default: {
          const unreachable: never = behaviour;
          return unreachable;
        }
      }
    })().catch((error: unknown) => {
      send(res, 500, JSON.stringify({ message: String(error) }), {
        'content-type': 'application/json',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(path, ...behaviours) {
      scripts.set(path, [...(scripts.get(path) ?? []), ...behaviours]);
    },
    rule(path, when, behaviour) {
      rules.push({ path, when, behaviour });
    },
    reset() {
      rules.length = 0;
      scripts.clear();
    },
    async close() {
      // Hanging requests would keep close() waiting forever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
