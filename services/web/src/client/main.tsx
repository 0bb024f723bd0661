import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api.js';
import { readBoot, type BootSession } from './boot.js';
import { ReportView } from './ReportView.js';
import { Reports } from './Reports.js';
import './styles.css';

const boot = readBoot();

const LOGIN_ERRORS: Record<string, string> = {
  link_invalid: 'This sign-in link is invalid, already used or expired. Ask for a new one.',
  unavailable: 'Signing in is not possible right now. Try again in a moment.',
};

function Login() {
  const params = new URLSearchParams(window.location.search);
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(
    LOGIN_ERRORS[params.get('error') ?? ''] ?? null,
  );
  const api = useMemo(
    () =>
      createApi({
        gatewayUrl: boot.gatewayUrl,
        token: () => null,
        onUnauthorized: async () => null,
      }),
    [],
  );
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setState('sending');
    try {
      await api.json('/auth/magic-link', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: email.trim() }),
      });
      setState('sent');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setState('idle');
    }
  }
  return (
    <main className="login" id="main">
      <h1>Sign in</h1>
      {state === 'sent' ? (
        <p role="status" className="notice">
          Check your inbox: we sent a sign-in link to <strong>{email}</strong>. Open it in this
          browser.
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <label htmlFor="email">Email address</label>
          <input
            id="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button type="submit" className="primary" disabled={state === 'sending'}>
            {state === 'sending' ? 'Sending…' : 'Email me a sign-in link'}
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </main>
  );
}

function App({ initial }: { initial: BootSession }) {
  const [path, setPath] = useState(window.location.pathname);
  const session = useMemo(() => ({ current: initial }), [initial]);
  const api = useMemo(
    () =>
      createApi({
        gatewayUrl: boot.gatewayUrl,
        token: () => session.current.accessToken,
        async onUnauthorized() {
          // The access token expired mid-page: the server refreshes it from the cookie.
          const res = await fetch('/auth/session', { method: 'POST', credentials: 'same-origin' });
          if (res.ok) {
            session.current = (await res.json()) as BootSession;
            return session.current.accessToken;
          }
          window.location.assign('/login');
          return null;
        },
      }),
    [session],
  );
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = (to: string) => {
    window.history.pushState(null, '', to);
    setPath(to);
    window.scrollTo(0, 0);
  };
  const match = /^\/reports\/([0-9a-f-]{36})$/.exec(path);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <a
          href="/"
          className="brand"
          onClick={(e) => {
            e.preventDefault();
            navigate('/');
          }}
        >
          Property reports
        </a>
        <form method="post" action="/auth/signout">
          <span className="muted small">{initial.email}</span>{' '}
          <button type="submit" className="small">
            Sign out
          </button>
        </form>
      </header>
      {match?.[1] ? (
        <ReportView key={match[1]} api={api} reportId={match[1]} navigate={navigate} />
      ) : (
        <Reports api={api} navigate={navigate} />
      )}
    </>
  );
}

const root = createRoot(document.getElementById('root')!);
root.render(<StrictMode>{boot.session ? <App initial={boot.session} /> : <Login />}</StrictMode>);
