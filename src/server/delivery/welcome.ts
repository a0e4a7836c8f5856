/** The welcome e-mail of a new account (the original site sent one), sent in the background once. */
import { sendMail } from '../mail/index.ts';
import type { UserRecord } from '../store/users.ts';
import { siteUrl } from './index.ts';
import { welcomeMail } from './mailMessages.ts';

const sending = new Set<Promise<void>>();

export function sendWelcome(record: UserRecord): void {
  if (!record.email) return;
  // Sign-in does not wait for the mail, and a failed mail does not fail the sign-in.
  const sent: Promise<void> = sendMail(welcomeMail(siteUrl, record.email))
    .then(
      () => undefined,
      (error: unknown) => console.error(`[welcome] mail to ${record.uid} failed:`, error instanceof Error ? error.message : error),
    )
    .finally(() => sending.delete(sent));
  sending.add(sent);
}

/** Settles when every welcome mail started so far has been sent or has failed (tests wait on it). */
export const welcomeMailsSettled = async (): Promise<void> => {
  await Promise.all([...sending]);
};
