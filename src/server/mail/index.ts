/**
 * The site's mail: one mailer per process (from the configuration), the shared rate limiter of
 * the mail endpoints, and the outbox readers for the admin area.
 */
import { join } from 'node:path';
import { config } from '../config/index.ts';
import { createMailer, type Mailer, type OutgoingMail, type SentMail } from './mailer.ts';
import { listOutbox, readOutboxMessage, type OutboxEntry } from './outbox.ts';
import { createRateLimiter, MAIL_LIMITS } from './rateLimit.ts';

export { renderMail, escapeHtml, type MailContent, type RenderedMail } from './templates.ts';
export type { OutgoingMail, SentMail } from './mailer.ts';
export type { OutboxEntry } from './outbox.ts';

/** Where the operator's desk reads enquiries and messages. */
export const operatorEmail = config.mail.operator;
export const outboxDir = join(config.dataDir, 'outbox');
export const mailMode: 'smtp' | 'outbox' = config.mail.smtpUrl ? 'smtp' : 'outbox';

let mailerInstance: Mailer | undefined;
function mailer(): Mailer {
  mailerInstance ??= createMailer({ smtpUrl: config.mail.smtpUrl, outboxDir, from: config.mail.from });
  return mailerInstance;
}

/** Sends one message (SMTP, or the outbox in the embedded default). */
export function sendMail(mail: OutgoingMail): Promise<SentMail> {
  return mailer().send(mail);
}

/** For the health check: resolves when mail can go out (see Mailer.verify). */
export const verifyMail = (): Promise<void> => mailer().verify();

/** Per-IP and per-user limit shared by /api/sendMail and the enquiry forms. */
export const mailRateLimiter = createRateLimiter(MAIL_LIMITS);

export const outboxMessages = (limit?: number): Promise<OutboxEntry[]> => listOutbox(outboxDir, limit);
export const outboxMessage = (file: string): Promise<string | null> => readOutboxMessage(outboxDir, file);
