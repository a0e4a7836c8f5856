/** Islands in the browser suite: wait for the state a test needs instead of retrying blind. */
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Resolves once the island around `inside` has hydrated (Astro removes its `ssr` attribute
 * then). Clicks and keystrokes before that reach server-rendered HTML with no handlers. The
 * wait is generous: on a loaded machine a chart island can take a while to start.
 */
export async function hydrated(page: Page, inside: Locator): Promise<void> {
  const island = page.locator('astro-island').filter({ has: inside }).last();
  await expect(island).toBeAttached();
  await expect(island).not.toHaveAttribute('ssr', { timeout: 60_000 });
}
