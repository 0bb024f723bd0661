// Web app benchmark (issue 13): the JavaScript shipped to the embed route (gzip), and in a real
// browser (Debian's Chromium) the time from app:init to a usable chat box and from send to the
// first answer text, beside the API's own time to first text (POST /chat read directly) in the
// same run. Writes bench/results/web-*.json. No assertions on timing.
import { execFileSync } from 'node:child_process';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildHtml, freePort, startFakeChatModel } from '@reports/test-support';
import { startSystem } from '../test/support/system.js';
import { signIn, upload, waitForStatus } from '../test/support/client.js';
import { launchBrowser, startWebApp } from '../test/support/browser.js';
import { distribution } from './support/stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_DIR = path.join(ROOT, 'bench/results');
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 20);
const ANSWER = 'The roof has slipped slates near the chimney [C1]. The gutters leak at the joints.';

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** Every script and modulepreload of a page, fetched, with raw and gzip sizes. */
async function shippedJs(pageUrl: string) {
  const html = await (await fetch(pageUrl)).text();
  const srcs = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => new URL(m[1]!, pageUrl).toString());
  const files = [];
  for (const src of new Set(srcs)) {
    const body = Buffer.from(await (await fetch(src)).arrayBuffer());
    files.push({
      file: new URL(src).pathname,
      bytes: body.length,
      gzip_bytes: gzipSync(body).length,
    });
  }
  return {
    files,
    bytes: files.reduce((a, f) => a + f.bytes, 0),
    gzip_bytes: files.reduce((a, f) => a + f.gzip_bytes, 0),
  };
}

const model = await startFakeChatModel({
  flavour: 'openai',
  answer: (r) => ((r.body as { stream?: boolean }).stream ? ANSWER : 'roof slates'),
});
const hostServer = createServer((req, res) => {
  const embed = new URL(req.url ?? '/', 'http://h').searchParams.get('embed') ?? '';
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body>
<iframe id="embed" title="Report chat" src="${embed}" style="width:800px;height:600px"></iframe>
<script>
  const o = new URL(${JSON.stringify(embed)}).origin;
  window.sendInit = (t) => document.getElementById('embed').contentWindow.postMessage({ type: 'app:init', authToken: t }, o);
</script></body></html>`);
});
await new Promise<void>((r) => hostServer.listen(0, '127.0.0.1', r));
const hostUrl = `http://127.0.0.1:${(hostServer.address() as AddressInfo).port}`;
const webPort = await freePort();
const system = await startSystem({
  env: {
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: `${model.url}/v1`,
    CORS_ORIGINS: `http://127.0.0.1:${webPort}`,
  },
});
const web = await startWebApp({
  WEB_PORT: String(webPort),
  GATEWAY_URL: system.url,
  EMBED_ALLOWED_ORIGINS: hostUrl,
});
const browser = await launchBrowser();
try {
  const session = await signIn(system, 'bench@example.test');
  const res = await upload(
    system,
    session,
    {
      bytes: buildHtml({
        title: 'Survey',
        sections: [
          { heading: 'Roof', paragraphs: ['Several slates have slipped near the chimney stack.'] },
          { heading: 'Drainage', paragraphs: ['The gutters leak at the joints.'] },
        ],
      }),
      filename: 'survey.html',
      type: 'text/html',
    },
    'Survey',
  );
  const reportId = res.body.id;
  await waitForStatus(system, session, reportId, 'ready', 90_000);
  const embedUrl = `${web.url}/embed/reports/${reportId}`;
  const js = await shippedJs(embedUrl);

  const initToReady: number[] = [];
  const sendToText: number[] = [];
  const page = await browser.newPage();
  for (let i = 0; i < RUNS; i += 1) {
    await page.goto(`${hostUrl}/?embed=${encodeURIComponent(embedUrl)}`);
    const frame = await (await page.waitForSelector('iframe#embed')).contentFrame();
    if (!frame) throw new Error('no frame');
    await frame.getByText('Connecting…').waitFor();
    const box = frame.getByLabel('Your question');
    const t0 = performance.now();
    await page.evaluate(`window.sendInit(${JSON.stringify(session.token)})`);
    await frame.waitForFunction(() => {
      const el = document.getElementById('chat-input') as HTMLTextAreaElement | null;
      return el !== null && !el.disabled;
    });
    initToReady.push(performance.now() - t0);
    await box.fill(`what is the condition of the roof slopes ${i}`);
    const t1 = performance.now();
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.waitForFunction(
      () =>
        (document.querySelector('[data-testid="answer"] .markdown')?.textContent ?? '').length > 0,
    );
    sendToText.push(performance.now() - t1);
    await frame.getByRole('button', { name: 'Send' }).waitFor();
  }

  // The API's own time to first text: POST /chat read directly, as fetch reads SSE.
  const apiFirstText: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const r = await fetch(`${system.url}/chat`, {
      method: 'POST',
      headers: session.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({
        report_id: reportId,
        message: `what is the condition of the roof slopes ${i}`,
      }),
    });
    if (!r.ok || !r.body) throw new Error(`chat ${r.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    let first: number | null = null;
    for await (const chunk of r.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      if (first === null && buffer.includes('event: chunk')) first = performance.now() - started;
    }
    if (first === null) throw new Error('no text in the answer');
    apiFirstText.push(first);
  }

  const result = {
    benchmark: 'web',
    date: new Date().toISOString(),
    runs: RUNS,
    machine: {
      platform: `${os.platform()} ${os.release()}`,
      cpu_count: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? 'unknown',
      commit: git(['rev-parse', '--short', 'HEAD']),
      dirty: git(['status', '--porcelain']) !== '',
    },
    embed_js: js,
    init_to_usable_chat_ms: distribution(initToReady),
    send_to_first_text_browser_ms: distribution(sendToText),
    api_first_text_ms: distribution(apiFirstText),
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  const stamp = result.date.replace(/[:.]/g, '-');
  const file = path.join(RESULTS_DIR, `web-${stamp}.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  const latest = path.join(RESULTS_DIR, 'web-latest.json.tmp');
  await writeFile(latest, `${JSON.stringify(result, null, 2)}\n`);
  await rename(latest, path.join(RESULTS_DIR, 'web-latest.json'));
  const d = (x: { p50: number; p95: number }) => `p50 ${x.p50} ms, p95 ${x.p95} ms`;
  console.log(`web benchmark (${RUNS} runs)
  JavaScript on the embed route: ${(js.gzip_bytes / 1024).toFixed(1)} KB gzip (${(js.bytes / 1024).toFixed(1)} KB raw, ${js.files.length} files)
  app:init -> usable chat box:   ${d(result.init_to_usable_chat_ms)}
  send -> first answer text (browser): ${d(result.send_to_first_text_browser_ms)}
  API time to first text (direct):     ${d(result.api_first_text_ms)}
  written to ${path.relative(ROOT, file)}`);
} finally {
  await browser.close();
  await web.stop();
  await system.stop();
  await model.close();
  hostServer.close();
}
