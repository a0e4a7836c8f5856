/**
 * The site's mail: configuration from astro:env, one mailer per process, the shared rate
 * limiter of the mail endpoints, and the outbox readers for the admin area.
 */
import { join } from 'node:path';
import { MAIL_FROM, OPERATOR_EMAIL, SMTP_URL } from 'astro:env/server';
import { dataDir } from '../runtime.ts';
import { createMailer, type Mailer, type OutgoingMail, type SentMail } from './mailer.ts';
import { listOutbox, readOutboxMessage, type OutboxEntry } from './outbox.ts';
import { createRateLimiter, MAIL_LIMITS } from './rateLimit.ts';

export { renderMail, escapeHtml, type MailContent, type RenderedMail } from './templates.ts';
export type { OutgoingMail, SentMail } from './mailer.ts';
export type { OutboxEntry } from './outbox.ts';

/** Where the operator's desk reads enquiries and messages. */
export const operatorEmail = OPERATOR_EMAIL;
export const outboxDir = join(dataDir, 'outbox');
export const mailMode: 'smtp' | 'outbox' = SMTP_URL ? 'smtp' : 'outbox';

let mailerInstance: Mailer | undefined;
function mailer(): Mailer {
  mailerInstance ??= createMailer({ smtpUrl: SMTP_URL, outboxDir, from: MAIL_FROM });
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
