// Data screens on a phone (Pixel 7 project): charts and tables fit the screen, and an axe scan
// finds no serious accessibility problem on the chart and calculator screens.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signInByApi } from './helpers/auth.ts';

test.beforeEach(async ({ page }) => {
  await signInByApi(page.context().request, 'premium@polyindex.test');
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
    // @axe-core/playwright is typed against its own copy of playwright-core: same runtime object.
    type AxePage = ConstructorParameters<typeof AxeBuilder>[0]['page'];
    const results = await new AxeBuilder({ page: page as unknown as AxePage }).include('main').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
