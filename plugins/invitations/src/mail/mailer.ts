/**
 * Outgoing email through nodemailer: over SMTP when a server is configured, otherwise each
 * message is written as an `.eml` file to the outbox folder of the data dir, so nothing is
 * lost and the messages can be read (by an operator, or a test).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  /** An SMTP connection URL (`smtp://user:pass@host:587`, `smtps://…`); without it, the outbox. */
  smtpUrl?: string;
  from: string;
  outboxDir: string;
}

/** nodemailer is loaded with the first message: a server that sends none keeps its memory (about 6 MB). */
async function loadNodemailer() {
  return (await import('nodemailer')).default;
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    let transport: Promise<Transporter> | undefined;
    return {
      async send(message) {
        transport ??= loadNodemailer().then((nodemailer) => nodemailer.createTransport(smtpUrl));
        await (await transport).sendMail({ from: options.from, ...message });
      },
    };
  }
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= loadNodemailer().then((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
      const info = await (await transport).sendMail({ from: options.from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      // Written aside and renamed, so a reader never sees half a message.
      const partial = join(options.outboxDir, `.${name}.partial`);
      await writeFile(partial, info.message as Buffer);
      await rename(partial, join(options.outboxDir, name));
    },
  };
}
