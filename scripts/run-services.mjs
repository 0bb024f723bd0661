// Runs every service as its own process (as in production), prefixes their
// logs, waits for the gateway's /health, then prints where to go and how to
// sign in. Besides the services: the web app, a local mail catcher (MailDev) that
// receives the sign-in mail, and a partner host page that embeds the app through
// the partner exchange. Ctrl-C (or SIGTERM) stops them all gracefully.
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createInterface } from 'node:readline';

const SERVICES = [
  'ingestion',
  'annotation',
  'embedding',
  'retrieval',
  'admin',
  'chat',
  'gateway',
  'web',
];
const port = process.env.PORT ?? '8080';
const host = process.env.HOST ?? '127.0.0.1';
const url = process.env.PUBLIC_URL ?? `http://${host}:${port}`;
const webPort = process.env.WEB_PORT ?? '3000';
const webUrl = `http://${host}:${webPort}`;
const hostExamplePort = process.env.HOST_EXAMPLE_PORT ?? '3001';
const hostExampleUrl = `http://${host}:${hostExamplePort}`;
const mailWebPort = process.env.MAIL_WEB_PORT ?? '1080';
const mailSmtpPort = process.env.MAIL_SMTP_PORT ?? '1025';
const inboxUrl = `http://${host}:${mailWebPort}/`;
const catchMail = !process.env.SMTP_URL;
const children = new Map();
let stopping = false;

// Local defaults: sign-in mail to the catcher, links to the web app, the web app's origin
// allowed by CORS, and a partner key pair for the host example (its public half to the gateway).
const env = { ...process.env };
env.SMTP_URL ??= `smtp://${host}:${mailSmtpPort}`;
env.AUTH_SITE_URL ??= webUrl;
env.GATEWAY_URL ??= url;
env.CORS_ORIGINS = [env.CORS_ORIGINS, webUrl].filter(Boolean).join(',');
env.EMBED_ALLOWED_ORIGINS = [env.EMBED_ALLOWED_ORIGINS, hostExampleUrl].filter(Boolean).join(',');
let partnerPrivateKey = null;
if (!env.PARTNER_JWT_PUBLIC_KEY) {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  env.PARTNER_JWT_PUBLIC_KEY = pair.publicKey.export({ type: 'spki', format: 'pem' });
  env.PARTNER_JWT_AUDIENCE = 'reports-local';
  env.PARTNER_JWT_ISSUER = 'https://partner.local.example';
  partnerPrivateKey = pair.privateKey.export({ type: 'pkcs8', format: 'pem' });
}

const EXTRA = {
  mail: {
    script: 'node_modules/maildev/dist/bin/maildev.js',
    args: ['--smtp', mailSmtpPort, '--web', mailWebPort, '--ip', host, '--web-ip', host],
  },
  partner: { script: 'services/web/examples/host-server.mjs', args: [] },
};

function start(name) {
  const extra = EXTRA[name];
  const childEnv =
    name === 'partner'
      ? {
          ...env,
          WEB_URL: webUrl,
          HOST_EXAMPLE_PORT: hostExamplePort,
          PARTNER_JWT_PRIVATE_KEY: partnerPrivateKey,
        }
      : env;
  const child = spawn(
    process.execPath,
    extra ? [extra.script, ...extra.args] : [`services/${name}/dist/main.js`],
    { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
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
if (catchMail) start('mail');
for (const name of SERVICES) start(name);
if (partnerPrivateKey) start('partner');

const deadline = Date.now() + 60_000;
while (!stopping && Date.now() < deadline) {
  try {
    const res = await fetch(`${url}/health`);
    if (res.ok) {
      console.log(`
  The system is up.
    Web app:  ${webUrl}
    Inbox:    ${catchMail ? `${inboxUrl}   (the local mail catcher: sign-in mail lands here)` : `mail goes out through ${env.SMTP_URL}`}
    Gateway:  ${url}
    API docs: ${url}/docs   (reference: ${url}/redoc, OpenAPI: ${url}/openapi.json)
${partnerPrivateKey ? `    Partner host example (embed mode): ${hostExampleUrl}\n` : ''}
  Sign in:
    1. Open ${webUrl}, type any email address, press "Email me a sign-in link".
    2. Open the inbox ${catchMail ? inboxUrl : '(your mail)'}, open the mail, follow its link.
    3. Upload a report (PDF, image, HTML, MHTML or DOCX), open it when it is ready, ask a question.
  From the command line instead:
    curl -s -X POST ${url}/auth/magic-link -H 'content-type: application/json' -d '{"email":"you@example.com"}'
    then take the link's token_hash from the mail: curl -s '${url}/auth/confirm?token_hash=<token_hash>&type=magiclink'

  Ctrl-C stops every service.
`);
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 500));
}
