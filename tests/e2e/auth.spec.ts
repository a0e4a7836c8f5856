import { expect, test } from '@playwright/test';
import { emulatorPhoneCode, signIn, signInAs, signInByApi, uniqueEmail } from './helpers/auth.ts';
import { baseURL } from './env.ts';

test('a new e-mail account signs up, completes its profile, gets its trial and signs out', async ({ page, context }) => {
  const email = uniqueEmail('signup');
  await page.goto('/crude/Naphtha');
  await expect(page).toHaveURL(/\/register\?next=%2Fcrude%2FNaphtha$/);

  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password').fill('s3cret-pass');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/details\?next=%2Fcrude%2FNaphtha$/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { email: string; role: string; subscribed: boolean; createdAt: string });
  expect(stored).toMatchObject({ email, role: 'user', subscribed: false });
  expect(stored.createdAt).toMatch(/^\d{2}-\d{2}-\d{4}$/);

  // A bad GSTIN is refused with a message, nothing saved.
  await page.getByLabel('Name').fill('Meera Processor');
  await page.getByLabel('Phone').fill('+91 98765 43210');
  await page.getByLabel('Company').fill('Meera Plastics');
  await page.getByLabel('City').fill('Surat');
  await page.getByLabel('Business type').selectOption('processor');
  await page.getByLabel('GSTIN (optional)').fill('27AABCP1234F1Z5');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByTestId('details-error')).toContainText('GSTIN is not valid');
  await page.getByLabel('GSTIN (optional)').fill('27aabcp1234f1zu');
  await page.getByRole('button', { name: 'Save and continue' }).click();

  // Back where the visitor wanted to go: in trial, so the data screen opens.
  await expect(page).toHaveURL(/\/crude\/Naphtha$/);
  await expect(page.getByTestId('trial-banner')).toContainText('left of full access');
  await expect(page.getByTestId('subscribe-now')).toBeVisible();
  const session = await (await context.request.get('/api/session')).json();
  expect(session).toMatchObject({ entitlement: 'full', trial: { active: true }, user: { email, company: 'Meera Plastics', gstin: '27AABCP1234F1ZU', businessType: 'processor' } });

  const cookie = (await context.cookies()).find((c) => c.name === '__session')!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });

  await page.getByTestId('sign-out').click();
  await expect(page).toHaveURL(`${baseURL}/`);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();

  // The old cookie, replayed, no longer works: the session was revoked.
  await context.addCookies([{ ...cookie }]);
  const after = await context.request.get('/api/session');
  expect((await after.json()).entitlement).toBe('anonymous');
  await page.goto('/crude/Naphtha');
  await expect(page).toHaveURL(/\/register/);
});

test('sign-in errors are explained', async ({ page }) => {
  await page.goto('/register');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('premium@polyindex.test');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('auth-error')).toHaveText('Wrong e-mail or password.');

  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Password').fill('polyindex-demo');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('auth-error')).toHaveText('An account with this e-mail already exists. Sign in instead.');
});

test('sign-in goes back to ?next= but never to another origin', async ({ page }) => {
  await signIn(page, 'premium@polyindex.test', undefined, '/historical-data/PP');
  await expect(page).toHaveURL(/\/historical-data\/PP$/);
  await page.context().clearCookies();
  await signIn(page, 'premium@polyindex.test', undefined, '//evil.example/steal');
  await expect(page).toHaveURL(`${baseURL}/`);
});

test('Google sign-in works offline with the emulator credential', async ({ page }) => {
  const email = uniqueEmail('google');
  await page.goto('/register?next=/buy-sell');
  await page.getByLabel('Google account e-mail (emulator)').fill(email);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/details\?next=%2Fbuy-sell$/);
  await page.getByRole('link', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(/\/buy-sell$/);
  const session = await (await page.context().request.get('/api/session')).json();
  expect(session.user).toMatchObject({ email, role: 'user', subscribed: false });
});

test('phone sign-in with the SMS code from the emulator', async ({ page, request }) => {
  const phone = `+9198${String(Date.now()).slice(-8)}`;
  await page.goto('/register?next=/services');
  await page.getByRole('tab', { name: 'Phone' }).click();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByTestId('emulator-code-hint')).toBeVisible();
  await page.getByLabel('SMS code').fill('000000');
  await page.getByRole('button', { name: 'Verify code' }).click();
  await expect(page.getByTestId('auth-error')).toContainText('That code is not right');
  await page.getByLabel('SMS code').fill(await emulatorPhoneCode(request, phone));
  await page.getByRole('button', { name: 'Verify code' }).click();
  await expect(page).toHaveURL(/\/details\?next=%2Fservices$/);
  const session = await (await page.context().request.get('/api/session')).json();
  expect(session.user).toMatchObject({ phone, role: 'user' });
});

test.describe('the header shows the visitor state', () => {
  for (const [email, testId] of [
    ['free@polyindex.test', 'subscribe-now'],
    ['premium@polyindex.test', 'subscribed'],
    ['basic@polyindex.test', 'subscribed'],
    ['admin@polyindex.test', 'admin-panel'],
  ] as const) {
    test(`${email} sees ${testId}`, async ({ page, context }) => {
      await signInByApi(context.request, email);
      await page.goto('/');
      await expect(page.getByTestId(testId)).toBeVisible();
      if (testId === 'admin-panel') await expect(page.getByTestId('admin-panel')).toHaveAttribute('href', '/admin');
      await expect(page.getByTestId('trial-banner')).toHaveCount(0);
    });
  }

  test('anonymous visitors see Subscribe Now and Sign in', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('subscribe-now')).toBeVisible();
    await expect(page.getByTestId('sign-in')).toBeVisible();
  });

  test('the trial account sees the countdown banner', async ({ page, context }) => {
    await signInAs(context, 'trial@polyindex.test');
    await page.goto('/');
    await expect(page.getByTestId('trial-banner')).toContainText(/Free trial: .+ left/);
  });
});
