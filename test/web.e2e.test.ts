import { createServer, type Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import {
  decodeJwt,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  importJWK,
  SignJWT,
  type JWK,
} from 'jose';
import { buildHtml, freePort, startFakeChatModel, type FakeChatModel } from '@reports/test-support';
import { startSystem, type RunningSystem } from './support/system.js';
import {
  DESKTOP,
  launchBrowser,
  linkOf,
  PHONE,
  SCREENSHOTS,
  seriousViolations,
  startMailServer,
  startWebApp,
  type WebApp,
} from './support/browser.js';

/**
 * The web app in a real browser (Debian's Chromium through playwright-core) against the
 * whole running stack: sign-in through a link taken from a real SMTP server, upload,
 * live status, reading, streamed chat with citations, thumbs, stop, conversations, embed
 * mode in a host page of another origin, and the partner exchange. axe-core checks every
 * main screen; the run saves screenshots at desktop and phone width (docs/screenshots).
 */

const EMAIL = 'buyer@example.test';
const PARTNER_AUDIENCE = 'reports-web-e2e';
const PARTNER_ISSUER = 'https://partner.e2e.test';
const ANSWER =
  'The roof has **slipped slates** near the chimney [C1].\n\n| Part | State |\n|---|---|\n| Roof | slipped slates |';

let system: RunningSystem;
let web: WebApp;
let mail: Awaited<ReturnType<typeof startMailServer>>;
let model: FakeChatModel;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let hostServer: Server;
let hostUrl: string;
let evilUrl: string;
let evilServer: Server;
let partnerHost: { url: string; close(): Promise<void> };
let partnerPrivatePem: string;
let reportId: string;

async function screenshot(p: Page, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await p.setViewportSize(size);
    await p.waitForTimeout(100);
    await p.screenshot({ path: path.join(SCREENSHOTS, `${name}-${label}.png`), fullPage: false });
  }
  await p.setViewportSize(DESKTOP);
}

async function expectAccessible(p: Page | Frame) {
  const violations = await seriousViolations(p);
  expect(violations.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes[0]?.target)}`)).toEqual(
    [],
  );
}

/** A page on its own origin that embeds the app and records what the app posts to it. */
function hostPage(req: { url?: string }): string {
  const url = new URL(req.url ?? '/', 'http://host');
  const embed = url.searchParams.get('embed') ?? '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body>
<h1>Host application</h1>
<iframe id="embed" title="Report chat" src="${embed}" style="width:100%;max-width:800px;height:600px;border:1px solid #888"></iframe>
<script>
  const appOrigin = new URL(${JSON.stringify(embed)}).origin;
  window.received = [];
  window.addEventListener('message', (e) => { if (e.origin === appOrigin) window.received.push(e.data); });
  window.sendInit = (token) =>
    document.getElementById('embed').contentWindow.postMessage({ type: 'app:init', authToken: token }, appOrigin);
</script></body></html>`;
}

/** A page of a third origin that forges app:init to its sibling frame (the app). */
const EVIL_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Other</title></head><body><script>
  const token = decodeURIComponent(location.hash.slice(1));
  parent.frames[0].postMessage({ type: 'app:init', authToken: token }, '*');
</script></body></html>`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The signed-in browser's access token, as the app itself gets it. */
async function accessToken(): Promise<string> {
  const res = await context.request.post(`${web.url}/auth/session`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** The same claims as `token`, signed by the built-in issuer's key, expired an hour ago. */
async function expiredCopy(token: string): Promise<string> {
  const { rows } = await system.db.pool.query<{ kid: string; alg: string; private_jwk: JWK }>(
    'SELECT kid, alg, private_jwk FROM auth_signing_keys ORDER BY created_at LIMIT 1',
  );
  const row = rows[0]!;
  const key = await importJWK(row.private_jwk, row.alg);
  const now = Math.floor(Date.now() / 1000);
  const claims = { ...decodeJwt(token), iat: now - 7200, exp: now - 3600 };
  return new SignJWT(claims).setProtectedHeader({ alg: row.alg, kid: row.kid }).sign(key);
}

async function sendInit(p: Page, token: string): Promise<void> {
  await p.evaluate(`window.sendInit(${JSON.stringify(token)})`);
}

async function received(p: Page): Promise<unknown[]> {
  return (await p.evaluate('window.received')) as unknown[];
}

async function embedFrame(p: Page): Promise<Frame> {
  const handle = await p.waitForSelector('iframe#embed, iframe[title="Report chat"]');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('no embed frame');
  return frame;
}

beforeAll(async () => {
  mail = await startMailServer();
  model = await startFakeChatModel({
    flavour: 'openai',
    answer: (r) => ((r.body as { stream?: boolean }).stream ? ANSWER : 'roof slates'),
    chunkChars: 8,
  });
  const pair = await generateKeyPair('RS256', { extractable: true });
  partnerPrivatePem = await exportPKCS8(pair.privateKey);
  const webPort = await freePort();
  const webUrl = `http://127.0.0.1:${webPort}`;
  hostServer = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(hostPage(req));
  });
  evilServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(EVIL_PAGE);
  });
  hostUrl = await listen(hostServer);
  evilUrl = await listen(evilServer);
  const { startHostExample } = await import('../services/web/examples/host-server.mjs');
  partnerHost = await startHostExample({
    webUrl,
    privateKeyPem: partnerPrivatePem,
    audience: PARTNER_AUDIENCE,
    issuer: PARTNER_ISSUER,
  });
  system = await startSystem({
    env: {
      LLM_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: `${model.url}/v1`,
      SMTP_URL: mail.url,
      AUTH_SITE_URL: webUrl,
      CORS_ORIGINS: webUrl,
      PARTNER_JWT_PUBLIC_KEY: await exportSPKI(pair.publicKey),
      PARTNER_JWT_AUDIENCE: PARTNER_AUDIENCE,
      PARTNER_JWT_ISSUER: PARTNER_ISSUER,
    },
  });
  web = await startWebApp({
    WEB_PORT: String(webPort),
    GATEWAY_URL: system.url,
    EMBED_ALLOWED_ORIGINS: `${hostUrl},${partnerHost.url}`,
  });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: DESKTOP });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  await system?.stop();
  await model?.close();
  await mail?.close();
  await partnerHost?.close();
  hostServer?.close();
  evilServer?.close();
});

describe('the web app in a browser', () => {
  it('signs in through the link the mail server received, leaving no token in the URL', async () => {
    await page.goto(`${web.url}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await expectAccessible(page);
    await screenshot(page, 'login');
    const before = mail.inbox.length;
    await page.getByLabel('Email address').fill(EMAIL);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText('Check your inbox').waitFor();
    const link = linkOf(await mail.waitForMail(EMAIL, before));
    expect(link.startsWith(`${web.url}/auth/confirm?token_hash=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Your reports' }).waitFor();
    expect(page.url()).toBe(`${web.url}/`);
    const cookies = await context.cookies(web.url);
    expect(cookies.length).toBe(2);
    for (const c of cookies) {
      expect(c.httpOnly).toBe(true);
      expect(c.sameSite).toBe('Lax');
    }
    await page.getByText('No reports yet').waitFor();
    await expectAccessible(page);
    // The link works once.
    const again = await context.request.get(link, { maxRedirects: 0 });
    expect(again.headers().location).toBe('/login?error=link_invalid');
  });

  it('refuses a file of the wrong type before sending it, in words', async () => {
    await page.locator('#upload-input').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'not a supported kind of file',
    );
  });

  it('uploads a report with the file picker and shows its status live until ready', async () => {
    const html = buildHtml({
      title: 'Survey of 12 Elm Road',
      sections: [
        {
          heading: 'Roof',
          paragraphs: [
            'The roof covering is natural slate. Several slates have slipped near the chimney stack.',
          ],
        },
        {
          heading: 'Heating',
          paragraphs: [
            'A gas boiler installed in 2015 heats the house. It was last serviced in 2023.',
          ],
        },
      ],
    });
    await page.locator('#upload-input').setInputFiles({
      name: 'elm-road.html',
      mimeType: 'text/html',
      buffer: html,
    });
    await page.getByText('was uploaded and is being processed').waitFor();
    const row = page.locator('tr[data-report-id]').first();
    reportId = (await row.getAttribute('data-report-id'))!;
    await row.getByTestId('status').getByText('Ready').waitFor({ timeout: 90_000 });
    await expectAccessible(page);
    await screenshot(page, 'reports');
  });

  it('opens the report and reads a section from the navigation', async () => {
    // The first section, opened on load, answers only after the reader has clicked another:
    // its late answer must not replace the section the reader asked for.
    const section = /\/reports\/[^/]+\/sections\/[^/?]+$/;
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    await page.route(section, async (route) => {
      if (holding || route.request().method() !== 'GET') return route.continue();
      holding = true;
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    await page.getByRole('link', { name: 'elm-road.html' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    await expect.poll(() => holding).toBe(true);
    await page.getByRole('button', { name: 'Heating' }).click();
    await page.getByRole('heading', { name: 'Heating', level: 2 }).waitFor();
    const late = page.waitForEvent('requestfinished', (r) => section.test(r.url()));
    release();
    await late;
    // Give the late answer the turns it needs to reach the page, then look again.
    await page.evaluate(
      'new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)))',
    );
    await page.unroute(section);
    await page.getByRole('heading', { name: 'Heating', level: 2 }).waitFor({ timeout: 1_000 });
    await page.getByText('last serviced in 2023').waitFor();
    expect(page.url()).toBe(`${web.url}/reports/${reportId}`);
  });

  it('adds an attachment to the report, lists it, and deletes it after confirmation', async () => {
    await page.getByRole('tab', { name: /^Attachments/ }).click();
    await page.getByText('No attachments.').waitFor();
    await page.locator('#attach-input').setInputFiles({
      name: 'invoice.html',
      mimeType: 'text/html',
      buffer: buildHtml({
        title: 'Invoice',
        sections: [{ heading: 'Roofer', paragraphs: ['Slates refixed.'] }],
      }),
    });
    const item = page.locator('.attachments li', { hasText: 'invoice.html' });
    await item.getByText('your upload').waitFor();
    page.once('dialog', (d) => void d.accept());
    await item.getByRole('button', { name: 'Delete attachment invoice.html' }).click();
    await page.getByText('No attachments.').waitFor();
    await page.getByRole('tab', { name: 'Text' }).click();
  });

  it('streams an answer as markdown whose citation opens the cited section, and records thumbs', async () => {
    await page.getByLabel('Your question').fill('What is wrong with the roof?');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByTestId('answer').last();
    await answer.getByText('slipped slates').first().waitFor();
    await answer.locator('table').waitFor();
    await expect(page.getByTestId('chat-mode').textContent()).resolves.toContain('rag');
    const cite = answer.locator('a.cite').first();
    const label = (await cite.getAttribute('aria-label')) ?? '';
    const section = /^Source C1: (.+)$/.exec(label)?.[1];
    expect(section).toBeTruthy();
    await cite.click();
    await page.getByRole('heading', { name: section!, level: 2 }).waitFor();
    await answer.getByRole('button', { name: 'Helpful', exact: true }).click();
    await expect
      .poll(() =>
        answer.getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed'),
      )
      .toBe('true');
    await expectAccessible(page);
    await screenshot(page, 'report');
  });

  it('stops an answer mid-stream, and the model call is abandoned', async () => {
    const ended = model.streams.length;
    model.script({ kind: 'drip', chunkDelayMs: 400 });
    await page.getByLabel('Your question').fill('Tell me about the roof in detail');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByTestId('answer').last();
    await answer.getByText('The roof').waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await answer.getByText('Stopped.').waitFor();
    const streams = await model.waitForStreams(ended + 1, 15_000);
    expect(streams.at(-1)?.clientAborted).toBe(true);
    expect(streams.at(-1)?.finished).toBe(false);
    await page.getByRole('button', { name: 'Send' }).waitFor();
  });

  it('lists, reopens, renames and deletes conversations', async () => {
    await page.getByText(/^Conversations \(/).click();
    const list = page.locator('.conversations li');
    await expect.poll(() => list.count()).toBe(1);
    page.once('dialog', (d) => void d.accept('Roof questions'));
    await list
      .first()
      .getByRole('button', { name: /^Rename/ })
      .click();
    await page.getByRole('button', { name: 'Roof questions', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Roof questions', exact: true }).click();
    // The reopened conversation shows the stored answers, thumbs included.
    await expect
      .poll(() =>
        page
          .getByTestId('answer')
          .first()
          .getByRole('button', { name: 'Helpful', exact: true })
          .getAttribute('aria-pressed'),
      )
      .toBe('true');
    page.once('dialog', (d) => void d.accept());
    await list
      .first()
      .getByRole('button', { name: /^Delete/ })
      .click();
    await page.getByText('No conversations yet.').waitFor();
  });

  it('turns chat memory on, shows when an answer drew on an earlier conversation, and forgets', async () => {
    const memory = page.getByLabel('Remember my earlier conversations about this report');
    await expect.poll(() => memory.isDisabled()).toBe(false);
    expect(await memory.isChecked()).toBe(false);
    await memory.check();
    await expect.poll(() => memory.isChecked()).toBe(true);
    const ask = async (question: string) => {
      await page.getByLabel('Your question').fill(question);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByTestId('answer').last().getByText('slipped slates').first().waitFor();
      await page.getByRole('button', { name: 'Send' }).waitFor();
    };
    await ask('What is wrong with the roof?');
    await page.getByRole('button', { name: 'New conversation' }).click();
    await ask('Tell me again what is wrong with the roof');
    await page
      .getByTestId('answer')
      .last()
      .getByText('Also drew on your earlier conversations.')
      .waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Forget what I asked before' }).click();
    await page.getByRole('status').filter({ hasText: 'Forgotten.' }).waitFor();
    await memory.uncheck();
    await expect.poll(() => memory.isChecked()).toBe(false);
  });

  it('signs out and is sent to the sign-in page', async () => {
    await page.goto(`${web.url}/`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await context.cookies(web.url)).toEqual([]);
    await page.goto(`${web.url}/reports/${reportId}`);
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});

describe('embed mode in a host page of another origin', () => {
  let token: string;
  let host: Page;

  beforeAll(async () => {
    // Sign in again for a token of the report's owner.
    const before = mail.inbox.length;
    await page.goto(`${web.url}/login`);
    await page.getByLabel('Email address').fill(EMAIL);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.goto(linkOf(await mail.waitForMail(EMAIL, before)));
    token = await accessToken();
    host = await context.newPage();
  });

  it('ignores a forged app:init from another origin, then starts on the parent one', async () => {
    await host.goto(
      `${hostUrl}/?embed=${encodeURIComponent(`${web.url}/embed/reports/${reportId}`)}`,
    );
    const frame = await embedFrame(host);
    await frame.getByText('Connecting…').waitFor();
    await host.evaluate(`new Promise((resolve) => {
      const f = document.createElement('iframe');
      f.title = 'Other origin';
      f.src = ${JSON.stringify(`${evilUrl}/#${encodeURIComponent(token)}`)};
      f.addEventListener('load', resolve);
      document.body.append(f);
    })`);
    await host.waitForTimeout(500);
    expect(await frame.getByText('Connecting…').isVisible()).toBe(true);
    await sendInit(host, token);
    await frame.getByLabel('Your question').waitFor();
    await expect.poll(() => frame.getByLabel('Your question').isEnabled()).toBe(true);
    expect(frame.url()).toBe(`${web.url}/embed/reports/${reportId}`);
    await expectAccessible(frame);
    await screenshot(host, 'embed');
  });

  it('on an expired token shows the banner, posts exactly one app:error session_expired, and does not redirect', async () => {
    await host.goto(
      `${hostUrl}/?embed=${encodeURIComponent(`${web.url}/embed/reports/${reportId}`)}`,
    );
    const frame = await embedFrame(host);
    await frame.getByText('Connecting…').waitFor();
    await sendInit(host, await expiredCopy(token));
    await frame.getByTestId('session-expired').waitFor();
    // A later app:init does not renew the running session.
    await sendInit(host, token);
    await host.waitForTimeout(1000);
    expect(await frame.getByTestId('session-expired').isVisible()).toBe(true);
    const messages = await received(host);
    expect(messages.filter((m) => (m as { type?: string }).type === 'app:error')).toEqual([
      { type: 'app:error', message: 'session_expired' },
    ]);
    expect(frame.url()).toBe(`${web.url}/embed/reports/${reportId}`);
    await expectAccessible(frame);
  });

  it('shows a load failure without session_expired when the report cannot be loaded', async () => {
    await host.goto(
      `${hostUrl}/?embed=${encodeURIComponent(`${web.url}/embed/reports/${randomUUID()}`)}`,
    );
    const frame = await embedFrame(host);
    await frame.getByText('Connecting…').waitFor();
    await sendInit(host, token);
    await frame.getByTestId('load-failed').waitFor();
    const messages = await received(host);
    expect(messages).toEqual([{ type: 'app:error', message: 'load_failed' }]);
  });

  it('refuses to be framed by a page whose origin is not allowlisted', async () => {
    const res = await context.request.get(`${web.url}/embed/reports/${reportId}`);
    const csp = res.headers()['content-security-policy'] ?? '';
    expect(csp).toContain(`frame-ancestors ${hostUrl} ${partnerHost.url}`);
    const app = await context.request.get(`${web.url}/login`);
    expect(app.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('runs in the partner host example through the partner exchange', async () => {
    // The partner user (one per partner subject) owns a report of its own.
    const now = Math.floor(Date.now() / 1000);
    const key = await (await import('jose')).importPKCS8(partnerPrivatePem, 'RS256');
    const jwt = await new SignJWT({ email: 'demo.buyer@partner.example' })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('demo-partner-user')
      .setAudience(PARTNER_AUDIENCE)
      .setIssuer(PARTNER_ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(key);
    const exchanged = await fetch(`${system.url}/auth/partner-exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jwt }),
    });
    expect(exchanged.status).toBe(200);
    const { access_token } = (await exchanged.json()) as { access_token: string };
    const form = new FormData();
    form.set(
      'file',
      new Blob(
        [
          buildHtml({
            title: 'Partner report',
            sections: [{ heading: 'Garden', paragraphs: ['A small garden.'] }],
          }),
        ],
        {
          type: 'text/html',
        },
      ),
      'partner.html',
    );
    const uploaded = await fetch(`${system.url}/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}` },
      body: form,
    });
    expect(uploaded.status).toBe(202);
    const partnerReport = ((await uploaded.json()) as { id: string }).id;
    const p = await context.newPage();
    await p.goto(`${partnerHost.url}/?report=${partnerReport}`);
    const frame = await embedFrame(p);
    await frame.getByLabel('Your question').waitFor();
    await expect.poll(() => frame.getByLabel('Your question').isEnabled()).toBe(true);
    await p.getByText('Chat started.').waitFor();
    await p.close();
  });
});
