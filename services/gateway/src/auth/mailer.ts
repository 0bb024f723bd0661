import nodemailer from 'nodemailer';

/** Delivers the built-in issuer's sign-in links. */
export interface SignInMailer {
  send(email: string, link: string): Promise<void>;
  close(): void;
}

/** The sign-in mail's text. Pure. */
export function signInMail(link: string): { subject: string; text: string; html: string } {
  const escaped = link.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return {
    subject: 'Your sign-in link',
    text: `Open this link to sign in (it works once, for one hour):\n\n${link}\n\nIf you did not ask for it, ignore this mail.\n`,
    html: `<p>Open this link to sign in (it works once, for one hour):</p><p><a href="${escaped}">Sign in</a></p><p>If you did not ask for it, ignore this mail.</p>`,
  };
}

/** SMTP delivery with nodemailer (`smtp://host:port`, `smtps://user:pass@host`). */
export function createSmtpMailer(smtpUrl: string, from: string): SignInMailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(email, link) {
      await transport.sendMail({ from, to: email, ...signInMail(link) });
    },
    close() {
      transport.close();
    },
  };
}
