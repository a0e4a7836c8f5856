/**
 * Signing in as a person does: the /register page's e-mail/password form. The account is
 * created first in the Firebase Auth emulator of the embedded default (loopback only), so
 * every test can use a fresh e-mail address and start as a free user.
 */
import { expect, type Page } from '@playwright/test';

export const E2E_PASSWORD = 'polyindex-e2e-Pa55';

const EMULATOR = process.env['FIREBASE_AUTH_EMULATOR_HOST'] ?? '127.0.0.1:9099';

/** Creates the e-mail/password account in the Auth emulator; an existing account is fine. */
export async function ensureAccount(email: string, password = E2E_PASSWORD): Promise<void> {
  const url = `http://${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  }).catch((error: unknown) => {
    throw new Error(`the Firebase Auth emulator is not reachable at ${EMULATOR} (FIREBASE_AUTH_EMULATOR_HOST): ${String(error)}`);
  });
  if (response.ok) return;
  const body = await response.text();
  if (!body.includes('EMAIL_EXISTS')) throw new Error(`could not create ${email} in the Auth emulator: ${response.status} ${body}`);
}

/** A fresh address per test, so tests never share a user record. */
export const freshEmail = (label: string): string =>
  `e2e-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/** Signs in through /register (inputs "E-mail" and "Password", button "Sign in") and waits to leave it. */
export async function signIn(page: Page, email: string, password = E2E_PASSWORD): Promise<void> {
  await ensureAccount(email, password);
  await page.goto('/register');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/register(\?|$)/, { timeout: 20_000 });
}
