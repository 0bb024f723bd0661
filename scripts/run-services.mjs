// Runs every service as its own process (as in production), prefixes their
// logs, waits for the gateway's /health, then prints where to go and how to
// sign in. Ctrl-C (or SIGTERM) stops them all gracefully.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const SERVICES = ['ingestion', 'annotation', 'embedding', 'retrieval', 'admin', 'chat', 'gateway'];
const port = process.env.PORT ?? '8080';
const host = process.env.HOST ?? '127.0.0.1';
const url = process.env.PUBLIC_URL ?? `http://${host}:${port}`;
const children = new Map();
let stopping = false;

function start(name) {
  const child = spawn(process.execPath, [`services/${name}/dist/main.js`], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(name, child);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      let text = line;
      try {
        const entry = JSON.parse(line);
        text = `${entry.level >= 50 ? 'ERROR ' : entry.level >= 40 ? 'WARN ' : ''}${entry.msg ?? ''}${entry.magic_link ? ` ${entry.magic_link}` : ''}`;
        if (entry.err?.message) text += ` (${entry.err.message})`;
      } catch {
        // not JSON: print as is
      }
      console.log(`${name.padEnd(10)} | ${text}`);
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`${name} exited (${signal ?? code}); stopping everything`);
      stop(1);
    } else if (children.size === 0) {
      process.exit(process.exitCode ?? 0);
    }
  });
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children.values()) child.kill('SIGTERM');
  if (children.size === 0) process.exit(code);
  setTimeout(() => process.exit(code), 15_000).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
for (const name of SERVICES) start(name);

const deadline = Date.now() + 60_000;
while (!stopping && Date.now() < deadline) {
  try {
    const res = await fetch(`${url}/health`);
    if (res.ok) {
      console.log(`
  The system is up.
    Gateway:  ${url}
    API docs: ${url}/docs   (reference: ${url}/redoc, OpenAPI: ${url}/openapi.json)

  Sign in (built-in issuer, local use):
    curl -s -X POST ${url}/auth/magic-link -H 'content-type: application/json' -d '{"email":"you@example.com"}'
    The sign-in link appears in the gateway log below; open it (or curl it) to get an access token:
    curl -s '<link>'
  Then, for example:
    curl -s -H "Authorization: Bearer <access_token>" -F file=@report.pdf ${url}/ingest

  Ctrl-C stops every service.
`);
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 500));
}
