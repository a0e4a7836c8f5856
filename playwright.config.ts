import { defineConfig, devices } from '@playwright/test';

import { E2E_BACKEND, E2E_DATA_DIR, E2E_EMULATOR_HOST, E2E_JOBS_SECRET, E2E_PORT, baseURL } from './tests/e2e/env.ts';

// Debian's Chromium, never a downloaded browser. The flags keep it off the network.
const chromium = {
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

const FIRESTORE_SPECS = /\/(health|auth|payments|prices|admin|admin-prices|admin-markets|admin-banners|news|newsroom|delivery|compare|citywise|home|basis)\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: '.cache/test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: process.env['CI'] ? [['list']] : [['list']],
  // Per test; flows that span several pages or contexts say test.slow() (×3). Waits poll for
  // the state they need (expect, toPass, hydrated()), never a fixed sleep.
  timeout: 30_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    launchOptions: chromium,
    trace: 'retain-on-failure',
    // The offline app's service worker would answer a page's requests before `page.route` sees
    // them, and precache the app shell in every new context: specs run without it, except
    // tests/e2e/pwa.spec.ts, which is about it.
    serviceWorkers: 'block',
  },
  projects:
    E2E_BACKEND === 'firestore'
      ? // The same specs, on Firestore: every screen that reads or writes the store.
        [{ name: 'firestore', use: { ...devices['Desktop Chrome'], launchOptions: chromium }, testMatch: FIRESTORE_SPECS }]
      : [
          { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium }, testIgnore: /\.mobile\.spec\.ts$/ },
          { name: 'mobile', use: { ...devices['Pixel 7'], launchOptions: chromium }, testMatch: /\.mobile\.spec\.ts$/ },
        ],
  webServer: {
    // The real start path: build-if-needed, the embedded default, the production server.
    // A fresh data directory every run: demo data and demo accounts as on a first start.
    command: `rm -rf ${E2E_DATA_DIR} && node scripts/start.mjs`,
    url: `${baseURL}/`,
    // A build and the Auth emulator's start-up, on a machine that may be busy (CI allows 90 min).
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST,
      DATA_BACKEND: E2E_BACKEND,
      // The delivery spec runs the daily-update job through its endpoint, and only then: no in-server scheduler.
      JOBS_SECRET: E2E_JOBS_SECRET,
      JOBS_SCHEDULER: 'off',
    },
  },
});
