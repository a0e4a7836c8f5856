/** axe-core in the browser suite: what the accessibility specs ask of a page. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Every violation on the page: id, impact and up to five targets. */
export async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

/** Serious and critical violations inside `<main>`, one line each (`id: targets`). */
export async function seriousViolationsInMain(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
