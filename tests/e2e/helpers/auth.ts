import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, E2E_EMULATOR_HOST, PROJECT_ID, baseURL } from '../env.ts';

const emulator = `http://${E2E_EMULATOR_HOST}`;

/** Signs in through the /register page as a person would, and waits to leave it. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, next?: string): Promise<void> {
  await page.goto(next ? `/register?next=${encodeURIComponent(next)}` : '/register');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/register/);
}

/** A session cookie for the request context without the UI (fast, for access tables). */
export async function signInByApi(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<void> {
  const signedIn = await request.post(`${emulator}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`, {
    data: { email, password, returnSecureToken: true },
  });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  const { idToken } = (await signedIn.json()) as { idToken: string };
  const session = await request.post(`${baseURL}/api/auth/session`, { data: { idToken }, headers: { Origin: baseURL } });
  expect(session.ok(), await session.text()).toBe(true);
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
