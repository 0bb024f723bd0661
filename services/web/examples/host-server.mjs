// A small partner application for trying embed mode: serves host.html and signs
// short-lived RS256 partner tokens for one demo user. `npm start` runs it; tests reuse it.
//   node services/web/examples/host-server.mjs   (HOST_EXAMPLE_PORT, WEB_URL,
//   PARTNER_JWT_PRIVATE_KEY (PEM), PARTNER_JWT_AUDIENCE, PARTNER_JWT_ISSUER, PARTNER_SUBJECT)
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPKCS8, SignJWT } from 'jose';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * Starts the example host. `privateKeyPem` is the partner's RS256 private key (PKCS#8);
 * the gateway holds its public half in PARTNER_JWT_PUBLIC_KEY.
 */
export async function startHostExample({
  port = 0,
  host = '127.0.0.1',
  webUrl,
  privateKeyPem,
  audience,
  issuer,
  subject = 'demo-partner-user',
  email = 'demo.buyer@partner.example',
}) {
  const key = await importPKCS8(privateKeyPem, 'RS256');
  const files = {
    '/': ['host.html', 'text/html; charset=utf-8'],
    '/host.js': ['host.js', 'text/javascript; charset=utf-8'],
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    try {
      if (req.method === 'GET' && files[url.pathname]) {
        const [file, type] = files[url.pathname];
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
        res.end(await readFile(path.join(HERE, file)));
      } else if (req.method === 'GET' && url.pathname === '/config.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ webUrl }));
      } else if (req.method === 'POST' && url.pathname === '/partner-token') {
        // A real partner signs for the user signed in to its own application.
        const token = await new SignJWT({ email })
          .setProtectedHeader({ alg: 'RS256' })
          .setSubject(subject)
          .setAudience(audience)
          .setIssuer(issuer)
          .setIssuedAt()
          .setExpirationTime('15m')
          .sign(key);
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ token }));
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const env = process.env;
  const pem = env.PARTNER_JWT_PRIVATE_KEY?.replace(/\\n/g, '\n');
  if (!pem || !env.WEB_URL || !env.PARTNER_JWT_AUDIENCE || !env.PARTNER_JWT_ISSUER) {
    console.error(
      'WEB_URL, PARTNER_JWT_PRIVATE_KEY, PARTNER_JWT_AUDIENCE and PARTNER_JWT_ISSUER are required',
    );
    process.exit(1);
  }
  const started = await startHostExample({
    port: Number(env.HOST_EXAMPLE_PORT ?? 3001),
    webUrl: env.WEB_URL.replace(/\/+$/, ''),
    privateKeyPem: pem,
    audience: env.PARTNER_JWT_AUDIENCE,
    issuer: env.PARTNER_JWT_ISSUER,
    subject: env.PARTNER_SUBJECT ?? 'demo-partner-user',
  });
  console.log(`partner host example on ${started.url}`);
  const stop = () => started.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
