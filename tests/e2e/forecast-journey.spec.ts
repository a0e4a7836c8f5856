// The desk's forecast from publication to its score, in Chromium, on a server of the spec's
// own (`npm start` on a fresh SQLite store, beside the site's Auth emulator and its demo
// accounts), whose forecasts' clock the spec moves (FORECAST_TEST_CLOCK_FILE,
// test only: src/server/forecasts/clock.ts). An editor publishes a 1-week call on the form; the
// clock passes the horizon and the desk enters the price of its end date; the score shows on the
// product page and in the scoreboard; an anonymous visitor sees the matured call on the public
// track record and not a call still open. Its own server because moving the clock on the shared
// one would move it under every other spec. The store's part is held to both backends by the
// contract suite (tests/contract/forecasts.contract.test.ts); this server's store is SQLite.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { freePort } from '../../scripts/lib/ports.mjs';
import { E2E_BACKEND, E2E_DATA_DIR, E2E_EMULATOR_HOST } from './env.ts';
import { startSessionByApi } from './helpers/session.ts';

const PRODUCT = 'PVC';
const SERIES = 'historical.pvcExtrusion.cif-ns';
const DAY_MS = 86_400_000;

let server: ChildProcess | null = null;
let baseURL = '';
let emulatorHost = '';
const dataDir = resolve(E2E_DATA_DIR, 'forecast-journey');
const clockFile = join(dataDir, 'clock.json');
const setClock = (offsetDays: number) => writeFileSync(clockFile, JSON.stringify({ offsetDays }));

test.beforeAll(async () => {
  test.setTimeout(600_000);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  setClock(0);
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  // The site's emulator: `npm start` finds it running and gives this store the demo accounts' records.
  emulatorHost = E2E_EMULATOR_HOST;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    FIREBASE_SERVICE_ACCOUNT: '',
    JOBS_SCHEDULER: 'off',
    FORECAST_TEST_CLOCK_FILE: clockFile,
    METADATA_SERVER_DETECTION: 'none',
    ASTRO_TELEMETRY_DISABLED: '1',
    DATA_BACKEND: 'sqlite',
    LIBSQL_URL: '',
  };
  server = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  // Ready when the home page answers (the store is seeded by then; the forecasts follow it).
  await expect
    .poll(async () => fetch(`${baseURL}/`).then((r) => r.status, () => 0), { timeout: 480_000, intervals: [1_000] })
    .toBe(200);
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((done) => server!.once('exit', done));
  server.kill('SIGTERM');
  await exited;
});

async function signedIn(browser: Browser, email: string | null): Promise<{ page: Page; request: APIRequestContext }> {
  const context = await browser.newContext({ baseURL });
  if (email) await startSessionByApi(context.request, { name: E2E_BACKEND, baseURL, emulatorHost, port: 0, dataDir }, email);
  return { page: await context.newPage(), request: context.request };
}

/** India's day, as the server's real clock has it. */
const indiaToday = (): string => new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10);

test('an editor’s 1-week call is scored when its horizon has passed, and shows matured to everyone', async ({ browser }) => {
  test.setTimeout(600_000);
  const premium = await signedIn(browser, 'premium@polyindex.test');
  // The first read waits for the first start's seed of the demo desk (tens of seconds of fits).
  await premium.page.goto(`/future-trend/${PRODUCT}`, { timeout: 300_000 });
  const scored = async () => Number(await premium.page.getByTestId('scoreboard').getByTestId('desk-Calls scored').innerText());

  // The editor publishes on the form, from the last price it shows.
  const editor = await signedIn(browser, 'editor@polyindex.test');
  await editor.page.goto(`/admin/forecasts?series=${SERIES}`);
  const baseText = await editor.page.getByTestId('forecast-base').locator('strong').innerText();
  const base = Number(baseText.split(' ')[0]!.replaceAll(',', ''));
  const low = Math.round(base * 1.01);
  const high = Math.round(base * 1.09);
  await editor.page.getByRole('radio', { name: /1 week/ }).check();
  await editor.page.getByRole('radio', { name: /Up/ }).check();
  await editor.page.getByLabel(/^Low/).fill(low.toLocaleString('en-IN'));
  await editor.page.getByLabel(/^High/).fill(String(high));
  await editor.page.getByLabel(/^Rationale/).fill('Restocking after the **monsoon**; Chinese offers firmer.');
  await editor.page.getByRole('button', { name: 'Publish' }).click();
  await expect(editor.page.getByRole('status')).toContainText('Forecast published');
  const listed = (await (await editor.request.get(`/api/admin/forecasts?series=${SERIES}`)).json()) as { forecasts: { id: string; by: { kind: string; uid?: string }; endDate: string; low: number }[] };
  const call = listed.forecasts.find((f) => f.by.kind === 'desk' && f.by.uid === 'demo-editor' && f.low === low)!;
  expect(call).toBeTruthy();
  const row = (page: Page) => page.locator(`[id="call-${call.id}"]`);
  await expect(editor.page.locator(`tr[data-forecast="${call.id}"]`)).toContainText('Open');

  // Open: the subscriber sees it as the open call; the public track record does not show it.
  await premium.page.goto(`/future-trend/${PRODUCT}`);
  await expect(premium.page.getByTestId('open-call').getByTestId('call-range')).toContainText(`${low.toLocaleString('en-IN')}–${high.toLocaleString('en-IN')}`);
  await expect(row(premium.page)).toHaveAttribute('data-status', 'open');
  const anonymous = await signedIn(browser, null);
  await anonymous.page.goto(`/future-trend/${PRODUCT}/track-record`);
  await expect(anonymous.page.getByTestId('scoreboard')).toBeVisible();
  await expect(row(anonymous.page)).toHaveCount(0);

  // The clock passes the horizon: the day after the end date. Until its price lands, the call waits for it.
  setClock(Math.round((Date.parse(call.endDate) - Date.parse(indiaToday())) / DAY_MS) + 1);
  await premium.page.goto(`/future-trend/${PRODUCT}`);
  await expect(row(premium.page)).toHaveAttribute('data-status', 'awaiting');
  const scoredBefore = await scored();
  // The price of the end date lands.
  const admin = await signedIn(browser, 'admin@polyindex.test');
  const actual = Math.round(base * 1.05);
  const written = await admin.request.post(`/api/admin/prices/${SERIES}/set`, { data: { date: call.endDate, value: actual }, headers: { Origin: baseURL } });
  expect(written.status(), await written.text()).toBe(200);

  // The score is on the product page and in the scoreboard.
  await premium.page.goto(`/future-trend/${PRODUCT}`);
  await expect(row(premium.page)).toHaveAttribute('data-status', 'scored');
  await expect(row(premium.page)).toContainText('In range');
  await expect(row(premium.page)).toContainText(actual.toLocaleString('en-IN'));
  expect(await scored()).toBeGreaterThan(scoredBefore);

  // A new call from the new price is open; the anonymous visitor sees the matured one only.
  await editor.page.goto(`/admin/forecasts?series=${SERIES}`);
  await expect(editor.page.getByTestId('forecast-base')).toContainText(actual.toLocaleString('en-IN'));
  await editor.page.getByRole('radio', { name: /Down/ }).check();
  await editor.page.getByLabel(/^Low/).fill(String(Math.round(actual * 0.9)));
  await editor.page.getByLabel(/^High/).fill(String(Math.round(actual * 0.99)));
  await editor.page.getByLabel(/^Rationale/).fill('Demand softens into the holidays.');
  await editor.page.getByRole('button', { name: 'Publish' }).click();
  await expect(editor.page.getByRole('status')).toContainText('Forecast published');
  const open = (((await (await editor.request.get(`/api/admin/forecasts?series=${SERIES}`)).json()) as { forecasts: { id: string; direction: string; by: { kind: string } }[] }).forecasts).find((f) => f.by.kind === 'desk' && f.direction === 'down')!;

  await anonymous.page.goto(`/future-trend/${PRODUCT}/track-record`);
  await expect(row(anonymous.page)).toHaveAttribute('data-status', 'scored');
  await expect(row(anonymous.page)).toContainText('In range');
  await expect(anonymous.page.locator(`[id="call-${open.id}"]`)).toHaveCount(0);
  // Changes from the call's base, never the price.
  expect(await row(anonymous.page).innerText()).not.toContain(actual.toLocaleString('en-IN'));
});
