/**
 * Outages as a person meets them, on two more instances of the built site started by this spec
 * (the shared server is never cut): instance A reaches the Auth emulator through a proxy this
 * spec cuts; instance B has a store that cannot be reached (a libSQL server that is not there).
 * The browser keeps reaching the emulator itself, so only the server side of sign-in fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freePort } from '../../scripts/lib/ports.mjs';
import { startTcpProxy, type TcpProxy } from '../integration/tcpProxy.ts';
import { DEMO_PASSWORD, E2E_DATA_DIR, E2E_EMULATOR_HOST } from './env.ts';
import { ensureAccount, uniqueEmail } from './helpers/auth.ts';

test.describe.configure({ mode: 'serial' });

// Two more instances, on free ports.
const A = `http://127.0.0.1:${await freePort()}`;
const B = `http://127.0.0.1:${await freePort()}`;
let authProxy: TcpProxy;
const servers: ChildProcess[] = [];

async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Another instance of the built site (`dist/`, built for the shared server) on `origin`. */
async function startInstance(origin: string, env: Record<string, string>): Promise<void> {
  const server = spawn(process.execPath, ['dist/server/serve.mjs'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // JOBS_SCHEDULER=off: an extra instance runs no delivery job of its own (A shares the suite's store and outboxes).
    env: { ...process.env, HOST: '127.0.0.1', PORT: new URL(origin).port, METADATA_SERVER_DETECTION: 'none', ASTRO_TELEMETRY_DISABLED: '1', JOBS_SCHEDULER: 'off', ...env },
  });
  servers.push(server);
  await expect.poll(async () => (await fetch(`${origin}/robots.txt`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  authProxy = await startTcpProxy(E2E_EMULATOR_HOST);
  // A shares the shared server's SQLite file (two instances, one store), so nothing is seeded.
  await startInstance(A, { DATA_DIR: resolve(E2E_DATA_DIR), FIREBASE_AUTH_EMULATOR_HOST: authProxy.host });
  await startInstance(B, {
    DATA_DIR: resolve(`${E2E_DATA_DIR}-outage-b`),
    FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST,
    LIBSQL_URL: `http://127.0.0.1:${await closedPort()}`,
  });
});

test.afterAll(async () => {
  for (const server of servers) {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  }
  await authProxy.close();
});

/** A's sign-in page talks to the emulator at A's (proxied) address; the browser goes round the proxy. */
async function browserReachesEmulator(page: Page): Promise<void> {
  await page.route(`http://${authProxy.host}/**`, async (route) => {
    const response = await route.fetch({ url: route.request().url().replace(authProxy.host, E2E_EMULATOR_HOST) });
    await route.fulfill({ response });
  });
}

async function signInAt(page: Page, origin: string, email: string, next: string): Promise<void> {
  await page.goto(`${origin}/register?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Signs in until it works, as a person told "try again in a few minutes" would: the server asks
 * Firebase again only seconds after its last failure, and the emulator on a busy machine can
 * answer slowly enough to be taken for a hang (src/server/auth/sessions.ts, HANG_SUSPECT_MS).
 */
async function signInUntilIn(page: Page, origin: string, email: string, next: string): Promise<void> {
  await expect(async () => {
    await signInAt(page, origin, email, next);
    await expect(page).toHaveURL(`${origin}${next}`, { timeout: 10_000 });
  }).toPass({ timeout: 90_000, intervals: [2_000] });
}

test('while Firebase cannot be reached, a signed-in visitor stays signed in and a sign-in is told to come back', async ({ page, request }) => {
  test.slow(); // a sign-in through the emulator, an outage and the way back
  await browserReachesEmulator(page);
  const email = uniqueEmail('outage');
  await ensureAccount(request, email);
  await signInUntilIn(page, A, email, '/crude/Naphtha');

  await authProxy.setMode('refuse');
  const again = await page.goto(`${A}/crude/Naphtha`);
  expect(again?.status()).toBe(200);
  await expect(page).toHaveURL(`${A}/crude/Naphtha`);

  const other = uniqueEmail('outage-new');
  await ensureAccount(request, other);
  await page.context().clearCookies();
  await signInAt(page, A, other, '/crude/Naphtha');
  await expect(page.getByTestId('auth-error')).toHaveText('Sign-in is unavailable, try again in a few minutes.');
  await expect(page).toHaveURL(/\/register/);

  const health = await request.get(`${A}/api/health`);
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true, status: 'degraded', dependencies: { store: 'ok', auth: 'degraded' } });

  // Back up: the server asks Firebase again a few seconds after the last failure (not on every
  // request), so a person who tries again shortly after gets in.
  await authProxy.setMode('open');
  await signInUntilIn(page, A, other, '/crude/Naphtha');
});

test('while the store cannot be reached, a signed-in visitor gets the 503 page, never /register', async ({ page, request }) => {
  test.slow(); // a sign-in through the emulator, an outage and the way back
  // Signed in on A; cookies are per host, so B receives the same session cookie.
  const email = uniqueEmail('store-outage');
  await ensureAccount(request, email);
  await signInUntilIn(page, A, email, '/crude/Naphtha');

  const gated = await page.goto(`${B}/crude/Naphtha`);
  expect(gated?.status()).toBe(503);
  expect(gated?.headers()['retry-after']).toBe('60');
  await expect(page).toHaveURL(`${B}/crude/Naphtha`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Briefly unavailable');
  await expect(page.getByTestId('unavailable')).toContainText('PolyIndex cannot reach its data right now.');

  const api = await page.context().request.get(`${B}/api/feedstock?name=Crude`);
  expect(api.status()).toBe(503);
  expect(await api.json()).toMatchObject({ error: { code: 'store_unavailable' } });
  const health = await request.get(`${B}/api/health`);
  expect(health.status()).toBe(503);
  expect(await health.json()).toMatchObject({ ok: false, status: 'unavailable', dependencies: { store: 'degraded' } });

  // The public home page does not need the store, and does not take the visitor for signed out:
  // the session answer says it could not be checked, and the header does not offer "Sign in".
  const asked = page.waitForResponse((response) => response.url() === `${B}/api/session`);
  // The header's script reports a session it could not load; wait for that, so "no Sign in" below
  // is the header's answer, not a look before it had one.
  const handled = page.waitForEvent('console', (message) => /Loading the session failed/.test(message.text()));
  expect((await page.goto(`${B}/`))?.status()).toBe(200);
  expect((await asked).status()).toBe(503);
  await handled;
  await expect(page.getByTestId('sign-in')).toHaveCount(0);
  const who = await page.context().request.get(`${B}/api/session`);
  expect(who.status()).toBe(503);
  expect(who.headers()['retry-after']).toBe('60');
  expect(await who.json()).toMatchObject({ error: { code: 'store_unavailable' } });
  // Positive control: where the session can be checked (A), the same header names the visitor.
  await page.goto(`${A}/`);
  await expect(page.getByTestId('sign-out')).toBeVisible();
});
