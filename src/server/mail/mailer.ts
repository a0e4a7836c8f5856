/**
 * Sending mail with nodemailer. With an SMTP URL the message goes to that server; without one
 * (the embedded default) nodemailer's stream transport renders it and it lands in the outbox.
 * Built from explicit options (no astro:env here) so tests build it against their own server.
 */
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import nodemailer from 'nodemailer';
import type { RenderedMail } from './templates.ts';
import { writeOutboxMessage } from './outbox.ts';

export interface MailerOptions {
  /** `smtp://user:pass@host:587`, `smtps://…`; unset = write to the outbox. */
  readonly smtpUrl?: string | undefined;
  readonly outboxDir: string;
  /** The From header of every message, e.g. `PolyIndex <desk@polyindex.test>`. */
  readonly from: string;
  /** Extra nodemailer SMTP options (tests: `ignoreTLS`). */
  readonly smtpOptions?: Record<string, unknown>;
}

export interface OutgoingMail extends RenderedMail {
  readonly to: string;
  readonly replyTo?: string | undefined;
  /** Extra headers, e.g. List-Unsubscribe (values are ours, never a visitor's text). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Files sent with the message (a receipt's invoice PDF). */
  readonly attachments?: readonly MailAttachment[] | undefined;
}

export interface MailAttachment {
  readonly filename: string;
  readonly content: Buffer;
  readonly contentType: string;
}

export interface SentMail {
  readonly messageId: string;
  /** `smtp` or the outbox file name. */
  readonly delivery: { readonly kind: 'smtp'; readonly response: string } | { readonly kind: 'outbox'; readonly file: string };
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<SentMail>;
  /** Resolves when mail can go out now (the SMTP server greets and accepts the login; the outbox is writable). */
  verify(): Promise<void>;
  close(): void;
}

/** Bounded waits: a stuck SMTP server must not hold a request forever. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

const messageOf = (from: string, mail: OutgoingMail) => ({
  from,
  to: mail.to,
  ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  ...(mail.headers ? { headers: { ...mail.headers } } : {}),
  ...(mail.attachments?.length ? { attachments: mail.attachments.map((file) => ({ ...file })) } : {}),
  // The envelope is exactly the To address: nothing a template or a header carries adds a recipient.
  envelope: { from: addressOf(from), to: [mail.to] },
});

/** `Name <a@b>` → `a@b` */
const addressOf = (mailbox: string): string => /<([^>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox.trim();

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const url = new URL(options.smtpUrl);
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error(`SMTP_URL must be smtp:// or smtps://, not ${url.protocol}`);
    const transport = nodemailer.createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS, ...options.smtpOptions });
    return {
      kind: 'smtp',
      async send(mail) {
        const info = await transport.sendMail(messageOf(options.from, mail));
        return { messageId: info.messageId, delivery: { kind: 'smtp', response: info.response } };
      },
      async verify() {
        await transport.verify();
      },
      close: () => transport.close(),
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await transport.sendMail(messageOf(options.from, mail));
      const raw = Buffer.isBuffer(info.message) ? info.message : Buffer.from(String(info.message));
      const file = await writeOutboxMessage(options.outboxDir, raw, info.messageId);
      return { messageId: info.messageId, delivery: { kind: 'outbox', file } };
    },
    async verify() {
      await mkdir(options.outboxDir, { recursive: true });
      await access(options.outboxDir, constants.W_OK);
    },
    close: () => transport.close(),
  };
}
