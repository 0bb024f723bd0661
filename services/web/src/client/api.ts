import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { errorWords } from './words.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(errorWords(status, code, detail));
    this.name = 'ApiError';
  }
}

export interface ApiOptions {
  gatewayUrl: string;
  /** The current bearer token. */
  token(): string | null;
  /**
   * Called on a 401: resolves with a fresh token to retry with once, or null (the caller
   * then sees the 401).
   */
  onUnauthorized(): Promise<string | null>;
}

export interface Api {
  json<T>(path: string, init?: RequestInit): Promise<T>;
  /** A raw response (status checked), for streams. */
  raw(path: string, init?: RequestInit): Promise<Response>;
  url(path: string): string;
}

async function toError(res: Response): Promise<ApiError> {
  let code = '';
  let detail = '';
  try {
    const body = (await res.json()) as { code?: unknown; detail?: unknown };
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.detail === 'string') detail = body.detail;
  } catch {
    // not JSON
  }
  return new ApiError(res.status, code, detail);
}

export function createApi(options: ApiOptions): Api {
  const send = async (path: string, init: RequestInit, token: string | null) => {
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    try {
      return await fetch(`${options.gatewayUrl}${path}`, { ...init, headers });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'network', '');
    }
  };
  const raw = async (path: string, init: RequestInit = {}): Promise<Response> => {
    let res = await send(path, init, options.token());
    if (res.status === 401) {
      const fresh = await options.onUnauthorized();
      if (fresh) res = await send(path, init, fresh);
    }
    if (!res.ok) throw await toError(res);
    return res;
  };
  return {
    raw,
    async json<T>(path: string, init: RequestInit = {}): Promise<T> {
      const res = await raw(path, init);
      if (res.status === 204) return undefined as T;
      const text = await res.text();
      return (text ? JSON.parse(text) : undefined) as T;
    },
    url: (path) => `${options.gatewayUrl}${path}`,
  };
}

/** Reads a `text/event-stream` body, calling `onEvent` for each event. Resolves at its end. */
export async function readEvents(
  res: Response,
  onEvent: (event: EventSourceMessage) => void,
): Promise<void> {
  if (!res.body) return;
  const parser = createParser({ onEvent });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}

export function jsonBody(value: unknown): RequestInit {
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}
