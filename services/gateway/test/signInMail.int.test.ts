import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { freshIp, startTestGateway, type TestGateway } from './support/gateway.js';

interface Mail {
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let port: number;
const inbox: Mail[] = [];
let gw: TestGateway;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
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
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
  gw = await startTestGateway({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'Reports <sign-in@reports.test>',
    AUTH_SITE_URL: 'http://app.reports.test/',
  });
});

afterAll(async () => {
  await gw?.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

describe('sign-in mail of the built-in issuer', () => {
  it('mails a link to the web app confirm route that signs in once, and does not log it', async () => {
    const seen = gw.logs.length;
    const res = await gw.app.inject({
      method: 'POST',
      url: '/auth/magic-link',
      payload: { email: 'Reader@Example.test' },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(202);
    const mail = inbox.at(-1);
    expect(mail?.to).toEqual(['reader@example.test']);
    const unfolded = mail!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link =
      /http:\/\/app\.reports\.test\/auth\/confirm\?token_hash=[\w-]+&type=magiclink/.exec(
        unfolded,
      )?.[0];
    expect(link).toBeDefined();
    expect(JSON.stringify(gw.logs.slice(seen))).not.toContain('token_hash');
    const url = new URL(link!);
    const confirm = await gw.app.inject({
      method: 'GET',
      url: `/auth/confirm${url.search}`,
      remoteAddress: freshIp(),
    });
    expect(confirm.statusCode).toBe(200);
    const again = await gw.app.inject({
      method: 'GET',
      url: `/auth/confirm${url.search}`,
      remoteAddress: freshIp(),
    });
    expect(again.statusCode).toBe(401);
  });

  it('answers 503 with a sentence when the mail server cannot be reached', async () => {
    const broken = await startTestGateway({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const res = await broken.app.inject({
        method: 'POST',
        url: '/auth/magic-link',
        payload: { email: 'someone@example.test' },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json<{ detail: string }>().detail).toMatch(/sign-in mail could not be sent/);
    } finally {
      await broken.close();
    }
  });
});
