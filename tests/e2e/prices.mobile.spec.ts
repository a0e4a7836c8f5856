// Data screens on a phone (Pixel 7 project): charts and tables fit the screen, and an axe scan
// finds no serious accessibility problem on the chart and calculator screens.
import { expect, test } from '@playwright/test';
import { signInAs } from './helpers/auth.ts';
import { seriousViolationsInMain } from './helpers/axe.ts';

test.beforeEach(async ({ page }) => {
  await signInAs(page, 'premium@polyindex.test');
});

for (const path of ['/crude/Naphtha', '/graph/PP', '/historical-data/LLDPE', '/indian-bazaar/citywise', '/global-bazaar/Europe', '/indian-bazaar/importCalculation']) {
  test(`${path} fits the phone's width`, async ({ page }) => {
    await page.goto(path);
    const chart = page.getByTestId('price-chart').first();
    if ((await chart.count()) > 0) {
      await chart.scrollIntoViewIfNeeded();
      // Hydrated charts take the card's width.
      await expect.poll(async () => (await chart.locator('svg').first().boundingBox())?.width ?? 9999).toBeLessThanOrEqual(page.viewportSize()!.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
  });
}

for (const path of ['/crude/Naphtha', '/indian-bazaar/importCalculation']) {
  test(`${path} has no serious accessibility violations`, async ({ page }) => {
    await page.goto(path);
    expect(await seriousViolationsInMain(page)).toEqual([]);
  });
}
