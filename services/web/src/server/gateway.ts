import { TokenPair } from './session.js';

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
    this.name = 'GatewayError';
  }
}

/** The few gateway calls the web server makes itself: sign-in link, confirm, refresh. */
export interface GatewayClient {
  requestLink(email: string): Promise<void>;
  confirm(tokenHash: string): Promise<TokenPair>;
  refresh(refreshToken: string): Promise<TokenPair>;
}

async function failure(res: Response): Promise<GatewayError> {
  let code = 'gateway_error';
  let detail = `the gateway answered ${res.status}`;
  try {
    const body = (await res.json()) as { code?: unknown; detail?: unknown };
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.detail === 'string') detail = body.detail;
  } catch {
    // not JSON
  }
  return new GatewayError(res.status, code, detail);
}

export function createGatewayClient(baseUrl: string): GatewayClient {
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const res = await fetch(`${baseUrl}${path}`, {
      ...init,
      signal: AbortSignal.timeout(15_000),
      headers: { accept: 'application/json', ...(init.headers ?? {}) },
    });
    if (!res.ok) throw await failure(res);
    return res;
  };
  return {
    async requestLink(email) {
      await call('/auth/magic-link', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
    },
    async confirm(tokenHash) {
      const query = new URLSearchParams({ token_hash: tokenHash, type: 'magiclink' });
      const res = await call(`/auth/confirm?${query.toString()}`);
      return TokenPair.parse(await res.json());
    },
    async refresh(refreshToken) {
      const res = await call('/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
      return TokenPair.parse(await res.json());
    },
  };
}
