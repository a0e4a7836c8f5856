import { expect, test, type Response } from '@playwright/test';
import { baseURL } from './env.ts';

// Text compression as Chromium gets it (it asks for br): the home page, its scripts and styles,
// the data its islands fetch, and a public article from the page cache, each compressed when it
// is worth it, each saying `Vary: Accept-Encoding` (issue 21's Lighthouse finding on /).
const TEXT = /^(text\/(html|css|javascript)|application\/(json|javascript|xml|[\w.+-]+\+(json|xml))|image\/svg\+xml)/;

async function textAnswers(page: import('@playwright/test').Page, path: string): Promise<Response[]> {
  const answers: Response[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(baseURL) && response.status() === 200 && TEXT.test(response.headers()['content-type'] ?? '')) answers.push(response);
  });
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  return answers;
}

test('/ and everything it loads arrive compressed when worth it, and vary on Accept-Encoding', async ({ page }) => {
  const answers = await textAnswers(page, '/');
  expect(answers.length).toBeGreaterThan(2);
  let compressed = 0;
  for (const response of answers) {
    const headers = await response.allHeaders();
    expect(headers['vary'] ?? '', response.url()).toMatch(/accept-encoding/i);
    const size = (await response.body()).length;
    if (size >= 1400) {
      expect(headers['content-encoding'], `${response.url()} (${size} bytes)`).toBe('br');
      compressed++;
    }
  }
  expect(compressed).toBeGreaterThan(1);
  const document = answers.find((r) => r.url() === `${baseURL}/`);
  expect((await document!.allHeaders())['content-encoding']).toBe('br');
});

test('a public article comes from the page cache compressed, the same page for every anonymous reader', async ({ page, request }) => {
  await page.goto('/news');
  const href = await page.locator('a[href^="/news/"]:not([href^="/news/page"]):not([href^="/news/type"])').first().getAttribute('href');
  const first = await request.get(href!, { headers: { 'accept-encoding': 'br' } });
  const second = await request.get(href!, { headers: { 'accept-encoding': 'br' } });
  expect(second.headers()['content-encoding']).toBe('br');
  expect(second.headers()['vary']).toMatch(/accept-encoding/i);
  expect(await second.text()).toBe(await first.text());
  const answers = await textAnswers(page, href!);
  expect((await answers.find((r) => r.url() === `${baseURL}${href}`)!.allHeaders())['content-encoding']).toBe('br');
  await expect(page.locator('article h1')).toBeVisible();
});
