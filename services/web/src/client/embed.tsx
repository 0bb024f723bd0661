import { useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError, createApi, jsonBody } from './api.js';
import { readBoot } from './boot.js';
import { Chat } from './Chat.js';
import './styles.css';

const boot = readBoot();
const allowed = new Set(boot.embedOrigins ?? []);
const reportId = /^\/embed\/reports\/([0-9a-f-]{36})$/.exec(window.location.pathname)?.[1] ?? null;

/** `aud` of a JWT, unverified: a partner's token is exchanged, a session token used as is. */
function audience(token: string): string | null {
  try {
    const json = atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { aud?: unknown };
    if (typeof claims.aud === 'string') return claims.aud;
    if (Array.isArray(claims.aud) && typeof claims.aud[0] === 'string') return claims.aud[0];
  } catch {
    // not a JWT
  }
  return null;
}

type State =
  | { kind: 'waiting' }
  | { kind: 'ready'; token: string }
  | { kind: 'expired' }
  | { kind: 'failed'; message: string };

/**
 * Embed mode (spec: Embed mode session expiry): waits for `app:init` from the parent
 * page, accepts it only from `window.parent` and an allowlisted origin, pins that
 * origin, keeps the token in memory only; a 401 shows a banner and posts one
 * `app:error` with `session_expired`; a later `app:init` does not renew the session.
 */
function Embed() {
  const [state, setState] = useState<State>({ kind: 'waiting' });
  const pinned = useRef<string | null>(null);
  const token = useRef<string | null>(null);
  const expiredSent = useRef(false);

  const post = (message: Record<string, unknown>) => {
    if (pinned.current) window.parent.postMessage(message, pinned.current);
  };

  const expire = () => {
    setState({ kind: 'expired' });
    if (!expiredSent.current) {
      expiredSent.current = true;
      post({ type: 'app:error', message: 'session_expired' });
    }
  };

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent || window.parent === window) return;
      if (!allowed.has(event.origin)) return;
      if (pinned.current !== null && event.origin !== pinned.current) return;
      const data: unknown = event.data;
      if (!data || typeof data !== 'object') return;
      const { type, authToken } = data as { type?: unknown; authToken?: unknown };
      if (type !== 'app:init' || typeof authToken !== 'string' || !authToken) return;
      // The first valid app:init starts the session; later ones do not renew it.
      if (pinned.current !== null) return;
      pinned.current = event.origin;
      void start(authToken);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  async function start(authToken: string) {
    if (!reportId) {
      setState({ kind: 'failed', message: 'This report could not be loaded.' });
      post({ type: 'app:error', message: 'load_failed' });
      return;
    }
    let access = authToken;
    if (audience(authToken) !== 'authenticated') {
      // A partner's own token: exchanged for a session of ours.
      try {
        const res = await fetch(`${boot.gatewayUrl}/auth/partner-exchange`, {
          method: 'POST',
          ...jsonBody({ jwt: authToken }),
        });
        if (res.status === 401) return expire();
        if (!res.ok) throw new Error(String(res.status));
        access = ((await res.json()) as { access_token: string }).access_token;
      } catch {
        setState({ kind: 'failed', message: 'This report could not be loaded.' });
        post({ type: 'app:error', message: 'load_failed' });
        return;
      }
    }
    token.current = access;
    try {
      await api.json(`/reports/${reportId}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return expire();
      // Not an authentication error: a generic load failure, no session_expired.
      setState({ kind: 'failed', message: 'This report could not be loaded.' });
      post({ type: 'app:error', message: 'load_failed' });
      return;
    }
    setState({ kind: 'ready', token: access });
  }

  const api = useMemo(
    () =>
      createApi({
        gatewayUrl: boot.gatewayUrl,
        token: () => token.current,
        onUnauthorized: async () => null,
      }),
    [],
  );

  if (state.kind === 'waiting')
    return (
      <main className="embed" id="main">
        <p role="status">Connecting…</p>
      </main>
    );
  if (state.kind === 'failed')
    return (
      <main className="embed" id="main">
        <p role="alert" className="error" data-testid="load-failed">
          {state.message} Reload to try again.
        </p>
      </main>
    );
  return (
    <main className="embed" id="main">
      {state.kind === 'expired' && (
        <div role="alert" className="banner" data-testid="session-expired">
          Your session has expired. Reload this panel to continue.
        </div>
      )}
      {state.kind === 'ready' && reportId && (
        <Chat
          api={api}
          reportId={reportId}
          onError={(err) => {
            if (err instanceof ApiError && err.status === 401) expire();
          }}
          onReady={() => post({ type: 'app:ready' })}
        />
      )}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Embed />);
