/** The welcome e-mail of a new account (the original site sent one), sent in the background once. */
import { sendMail } from '../mail/index.ts';
import type { UserRecord } from '../store/users.ts';
import { siteUrl } from './index.ts';
import { welcomeMail } from './mailMessages.ts';

export function sendWelcome(record: UserRecord): void {
  if (!record.email) return;
  // Sign-in does not wait for the mail, and a failed mail does not fail the sign-in.
  sendMail(welcomeMail(siteUrl, record.email, record.displayName)).catch((error: unknown) => {
    console.error(`[welcome] mail to ${record.uid} failed:`, error instanceof Error ? error.message : error);
  });
}
