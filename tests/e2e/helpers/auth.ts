import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, E2E_BACKEND, E2E_EMULATOR_HOST, PROJECT_ID, storageStateOf } from '../env.ts';
import { siteOf } from '../sites.ts';
import { startSessionByApi } from './session.ts';

export { storageStateOf };

const emulator = `http://${E2E_EMULATOR_HOST}`;

/** This worker's site is the running project's (a mismatch would test one server and believe it the other). */
function assertSite(): void {
  const expected = (test.info().project.metadata as { site?: string } | undefined)?.site;
  if (expected && expected !== E2E_BACKEND) throw new Error(`project ${test.info().project.name} serves ${expected}, but this worker's tests/e2e/env.ts says ${E2E_BACKEND}`);
}

/**
 * A demo account signed in on `target` (a page's context, or a context) from its saved login
 * state (tests/e2e/auth.setup.ts): no form, no request. For specs where sign-in is not the
 * subject; `signIn` below is the form.
 */
export async function signInAs(target: Page | BrowserContext, email: string): Promise<void> {
  assertSite();
  const context = 'context' in target ? target.context() : target;
  const { cookies } = JSON.parse(readFileSync(storageStateOf(email), 'utf8')) as { cookies: Parameters<BrowserContext['addCookies']>[0] };
  await context.addCookies(cookies);
}

/** Signs in through the /register page as a person would, and waits to leave it. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, next?: string): Promise<void> {
  assertSite();
  await page.goto(next ? `/register?next=${encodeURIComponent(next)}` : '/register');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/register/);
}

/** A session cookie for the request context without the UI (fast, for access tables). */
export async function signInByApi(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<void> {
  assertSite();
  await startSessionByApi(request, siteOf(E2E_BACKEND), email, password);
}

/** The SMS code the emulator "sent" to a phone number. */
export async function emulatorPhoneCode(request: APIRequestContext, phone: string): Promise<string> {
  const response = await request.get(`${emulator}/emulator/v1/projects/${PROJECT_ID}/verificationCodes`);
  const { verificationCodes } = (await response.json()) as { verificationCodes: { phoneNumber: string; code: string }[] };
  const match = verificationCodes.filter((c) => c.phoneNumber === phone).at(-1);
  if (!match) throw new Error(`no verification code for ${phone}`);
  return match.code;
}

export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

/** Creates an e-mail/password account in the emulator (an existing one is fine). */
export async function ensureAccount(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<void> {
  const response = await request.post(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`, {
    data: { email, password, returnSecureToken: true },
  });
  if (!response.ok() && !(await response.text()).includes('EMAIL_EXISTS')) throw new Error(`could not create ${email}: ${response.status()}`);
}

/** A brand-new account (in its trial), signed in through /register. */
export async function signInNewAccount(page: Page, email: string): Promise<void> {
  await ensureAccount(page.context().request, email);
  await signIn(page, email);
}

/** A brand-new account (in its trial), signed in by the API, its page on the home page as after the form. */
export async function signInNewAccountByApi(page: Page, email: string): Promise<void> {
  await ensureAccount(page.context().request, email);
  await signInByApi(page.context().request, email);
  await page.goto('/');
}
