import type {
  IngestAccepted,
  IngestStatus,
  RealtimeEvent,
  TokenResponse,
} from '@reports/contracts';
import type { RunningSystem } from './system.js';
import { sseMessages } from './sse.js';

let ipCounter = 10;
/** A client address of its own, so one test's requests never spend another's rate limit. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.77.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

export interface Session {
  token: string;
  refresh: string;
  user: TokenResponse['user'];
  ip: string;
  headers(extra?: Record<string, string>): Record<string, string>;
}

/** Signs in through the built-in issuer exactly as a person would: the link comes from the log. */
export async function signIn(system: RunningSystem, email: string): Promise<Session> {
  const ip = freshIp();
  const seen = system.logs.length;
  const res = await fetch(`${system.url}/auth/magic-link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email }),
  });
  if (res.status !== 202) throw new Error(`magic link: ${res.status} ${await res.text()}`);
  let link: string | undefined;
  const deadline = Date.now() + 5000;
  while (!link && Date.now() < deadline) {
    link = system.logs
      .slice(seen)
      .map((l) => l.json?.magic_link)
      .find((v): v is string => typeof v === 'string');
    if (!link) await new Promise((r) => setTimeout(r, 20));
  }
  if (!link) throw new Error('no magic link in the gateway log');
  const confirm = await fetch(link, { headers: { 'x-forwarded-for': ip } });
  if (!confirm.ok) throw new Error(`confirm: ${confirm.status} ${await confirm.text()}`);
  const tokens = (await confirm.json()) as TokenResponse;
  return {
    token: tokens.access_token,
    refresh: tokens.refresh_token,
    user: tokens.user,
    ip,
    headers: (extra = {}) => ({
      authorization: `Bearer ${tokens.access_token}`,
      'x-forwarded-for': ip,
      ...extra,
    }),
  };
}

export async function upload(
  system: RunningSystem,
  session: Session,
  file: { bytes: Buffer; filename: string; type?: string },
  title?: string,
): Promise<{ status: number; body: IngestAccepted & { code?: string; detail?: string } }> {
  const form = new FormData();
  if (title) form.set('title', title);
  form.set(
    'file',
    new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }),
    file.filename,
  );
  const res = await fetch(`${system.url}/ingest`, {
    method: 'POST',
    headers: session.headers(),
    body: form,
  });
  return {
    status: res.status,
    body: (await res.json()) as IngestAccepted & { code?: string; detail?: string },
  };
}

export interface SseMessage {
  id: number;
  event: string;
  data: RealtimeEvent;
}

/** Reads the realtime channel until the server ends it (ready or failed), `stopAfter` messages, or `until` holds. */
export async function readEvents(
  system: RunningSystem,
  session: Session,
  reportId: string,
  opts: {
    lastEventId?: number;
    stopAfter?: number;
    timeoutMs?: number;
    until?: (m: SseMessage) => boolean;
  } = {},
): Promise<SseMessage[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 90_000);
  const headers = session.headers(
    opts.lastEventId ? { 'last-event-id': String(opts.lastEventId) } : {},
  );
  const res = await fetch(`${system.url}/ingest/${reportId}/events`, {
    headers,
    signal: controller.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`events: ${res.status} ${await res.text()}`);
  const messages: SseMessage[] = [];
  try {
    for await (const message of sseMessages(res.body as AsyncIterable<Uint8Array>)) {
      if (!message.data) continue;
      messages.push({
        id: Number(message.id),
        event: message.event ?? 'message',
        data: JSON.parse(message.data) as RealtimeEvent,
      });
      if ((opts.stopAfter && messages.length >= opts.stopAfter) || opts.until?.(messages.at(-1)!)) {
        controller.abort();
        return messages;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return messages;
}

export async function getJson<T = unknown>(
  system: RunningSystem,
  session: Session | null,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${system.url}${path}`, {
    ...init,
    headers: {
      ...(session ? session.headers() : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/**
 * Polls GET /ingest/{id}/status until it shows `status`. The status is a projection
 * of the same events the realtime channel carries, so it may trail it by a moment.
 */
export async function waitForStatus(
  system: RunningSystem,
  session: Session,
  reportId: string,
  status: string,
  timeoutMs = 10_000,
): Promise<IngestStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await getJson<IngestStatus>(system, session, `/ingest/${reportId}/status`);
    if (res.status === 200 && res.body.status === status) return res.body;
    if (Date.now() > deadline)
      throw new Error(`status of ${reportId} is ${JSON.stringify(res.body)}, not ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
