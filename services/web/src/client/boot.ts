export interface BootSession {
  accessToken: string;
  expiresAt: number | null;
  email: string | null;
}

export interface Boot {
  gatewayUrl: string;
  session: BootSession | null;
  embedOrigins?: string[];
}

/** What the server put in `<script id="boot">`. */
export function readBoot(): Boot {
  const text = document.getElementById('boot')?.textContent ?? '';
  try {
    const value = JSON.parse(text) as Boot;
    if (typeof value.gatewayUrl === 'string') return value;
  } catch {
    // fall through
  }
  return { gatewayUrl: window.location.origin, session: null };
}
