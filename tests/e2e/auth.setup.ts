/**
 * The setup project of each site (playwright.config.ts): every demo account signs in once, by
 * the API, and its login state (the session cookie) is saved for the specs
 * (`signInAs(page, email)` and `storageStateOf(email)` in tests/e2e/helpers/auth.ts), instead of
 * a sign-in through the form in every test. The form itself is tested where sign-in is the
 * subject (auth.spec.ts and a few journeys).
 *
 * It also names the site in E2E_SITE: Playwright gives the environment a setup project leaves to
 * the workers of the projects that depend on it, so tests/e2e/env.ts knows its site.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { test as setup } from '@playwright/test';
import { demoAccounts } from '../../src/server/demoAccounts.ts';
import { siteOf, storageStateFile, type SiteName } from './sites.ts';
import { startSessionByApi } from './helpers/session.ts';

setup('every demo account signs in once; its login state is saved', async ({ playwright }, testInfo) => {
  // The site's first requests open its store, which a fresh site first fills with the demo
  // prices: minutes on a busy machine with Firestore.
  setup.setTimeout(300_000);
  const site = siteOf((testInfo.project.metadata as { site: SiteName }).site);
  process.env['E2E_SITE'] = site.name;
  await Promise.all(
    demoAccounts.map(async (account) => {
      const request = await playwright.request.newContext({ baseURL: site.baseURL, timeout: 280_000 });
      try {
        await startSessionByApi(request, site, account.email);
        const file = storageStateFile(site.name, account.email);
        mkdirSync(dirname(file), { recursive: true });
        await request.storageState({ path: file });
      } finally {
        await request.dispose();
      }
    }),
  );
});
