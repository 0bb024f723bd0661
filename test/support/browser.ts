import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { freePort } from '@reports/test-support';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

/** Debian's Chromium, headless (provisioning installs it; nothing is downloaded). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousViolations(page: Page | Frame): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays on.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate('axe.run().then((r) => r.violations)');
  return (violations as AxeViolation[]).filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
}

export interface Mail {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free loopback port, keeping every mail it receives. */
export async function startMailServer(): Promise<{
  url: string;
  inbox: Mail[];
  waitForMail(to: string, after: number, timeoutMs?: number): Promise<Mail>;
  close(): Promise<void>;
}> {
  const inbox: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    async waitForMail(to, after, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = inbox.slice(after).find((m) => m.to.includes(to));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail for ${to}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-in link of a mail (quoted-printable undone). */
export function linkOf(mail: Mail): string {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
  const link =
    /https?:\/\/[^\s"<>]+\/auth\/confirm\?token_hash=[\w-]+&(?:amp;)?type=magiclink/.exec(
      text,
    )?.[0];
  if (!link) throw new Error('no sign-in link in the mail');
  return link.replace('&amp;', '&');
}

export interface WebApp {
  url: string;
  logs: string[];
  stop(): Promise<void>;
}

/** The built web app (services/web/dist/main.js) as a process. */
export async function startWebApp(env: Record<string, string>): Promise<WebApp> {
  const port = env.WEB_PORT ? Number(env.WEB_PORT) : await freePort();
  const logs: string[] = [];
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, 'services/web/dist/main.js')],
    {
      env: {
        PATH: process.env.PATH ?? '',
        WEB_PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  for (const stream of [child.stdout, child.stderr])
    if (stream) createInterface({ input: stream }).on('line', (l) => logs.push(l));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`web app exited: ${logs.join('\n')}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`web app did not start (port ${port}): ${logs.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    logs,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const SCREENSHOTS = path.join(ROOT, 'docs/screenshots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
