/**
 * The daily update and the weekly forecast digest as a phone shows them, in Debian's Chromium at
 * 390 CSS px (and the e-mail at 1366): the e-mail's HTML in English and Hindi, and the WhatsApp message drawn as a chat bubble
 * (*bold* as WhatsApp draws it). Each rendering is kept as a PNG under .cache/test-artefacts/
 * (git-ignored) for a person to look at, and checked as a person would: nothing scrolls
 * sideways, no table or cell runs past the screen, no text is under 11 CSS px.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, testChromium } from '../../scripts/lib/chromium.mjs';
import { mailDailyUpdate, whatsappDailyUpdate } from '../../src/lib/delivery/dailyUpdate.ts';
import { mailForecastDigest, whatsappForecastDigest } from '../../src/lib/delivery/forecastDigest.ts';
import { renderTemplate } from '../../src/lib/delivery/whatsappTemplates.ts';
import { dailyUpdateMail, forecastDigestMail } from '../../src/server/delivery/mailMessages.ts';
import { escapeHtml } from '../../src/server/mail/templates.ts';
import { DAY, MORE, PRICES, SITE } from '../unit/data/dailyPrices.ts';
import { DIGEST_DAY, PRODUCTS } from '../unit/data/forecastDigest.ts';

const ARTEFACTS = resolve('.cache/test-artefacts');
const CHROMIUM = { executablePath: testChromium(), args: CHROMIUM_FLAGS };

let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTEFACTS, { recursive: true });
  browser = await chromium.launch(CHROMIUM);
});
afterAll(() => browser?.close());

interface Layout {
  readonly scrollWidth: number;
  readonly overflowing: string[];
  readonly tooSmall: string[];
}

/** What a person would notice: sideways scroll, boxes past the screen's edge, text under 11 px. */
const layoutOf = (page: Page): Promise<Layout> =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const overflowing: string[] = [];
    const tooSmall: string[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > width + 0.5) overflowing.push(`${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}" ends at ${Math.round(box.right)}`);
      const ownText = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '');
      if (ownText && parseFloat(getComputedStyle(element).fontSize) < 11) tooSmall.push(`${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}" at ${getComputedStyle(element).fontSize}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, overflowing, tooSmall };
  });

async function render(html: string, width: number, file: string): Promise<Layout> {
  const page = await browser.newPage({ viewport: { width, height: 844 } });
  try {
    await page.setContent(html, { waitUntil: 'load' });
    await page.screenshot({ path: join(ARTEFACTS, file), fullPage: true });
    return await layoutOf(page);
  } finally {
    await page.close();
  }
}

/** WhatsApp's own formatting: *bold*, line breaks kept; a bubble 85 % of a 390 px chat. */
const bubble = (text: string, language: string): string => `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;background:#efeae2;font-family:'Noto Sans','Noto Sans Devanagari',Arial,sans-serif">
<div style="padding:12px 8px"><div style="max-width:85%;background:#fff;border-radius:8px;padding:6px 9px 8px;font-size:15px;line-height:20px;color:#111b21;white-space:pre-wrap;overflow-wrap:anywhere;box-shadow:0 1px 0.5px rgba(0,0,0,.13)">${escapeHtml(text).replace(/\*([^*\n]+)\*/g, '<b>$1</b>')}</div></div></body></html>`;

describe.each(['en', 'hi'] as const)('the daily update in %s, rendered', (language) => {
  it('the e-mail at 390 px (and 1366): nothing scrolls sideways or runs past the edge, no text under 11 px', async () => {
    const mail = dailyUpdateMail({ siteUrl: SITE, linkSecret: 'render-secret', now: () => new Date() }, 'trader@example.test', 'u-render', mailDailyUpdate({ day: DAY, language, prices: PRICES, settingsLink: `${SITE}/alerts` }));
    const phone = await render(mail.html, 390, `daily-update-email-390.${language}.png`);
    expect(phone).toEqual({ scrollWidth: 390, overflowing: [], tooSmall: [] });
    const desktop = await render(mail.html, 1366, `daily-update-email-1366.${language}.png`);
    expect(desktop).toEqual({ scrollWidth: 1366, overflowing: [], tooSmall: [] });
  });

  it('the WhatsApp update as a 390 px phone shows it (template and free text)', async () => {
    const update = whatsappDailyUpdate({ day: DAY, language, prices: PRICES, moreLink: MORE });
    for (const [kind, text] of [['template', renderTemplate(update.template, update.params)], ['text', update.text]] as const) {
      const layout = await render(bubble(text, language), 390, `daily-update-whatsapp-390.${language}.${kind}.png`);
      expect(layout).toEqual({ scrollWidth: 390, overflowing: [], tooSmall: [] });
    }
  });
});

describe.each(['en', 'hi'] as const)('the weekly forecast digest in %s, rendered', (language) => {
  // With the open calls (a plan with the outlook pages) and without (changes from the base: longer calls).
  const inputOf = (openCalls: boolean) => ({ day: DIGEST_DAY, language, products: PRODUCTS, openCalls, openCallPlans: 'Premium and Platinum', moreLink: `${SITE}/indian-bazaar/pricePrediction`, settingsLink: `${SITE}/alerts` });

  it('the e-mail at 390 px (and 1366): nothing scrolls sideways or runs past the edge, no text under 11 px', async () => {
    for (const openCalls of [true, false]) {
      const mail = forecastDigestMail({ siteUrl: SITE, linkSecret: 'render-secret', now: () => new Date() }, 'trader@example.test', 'u-render', mailForecastDigest(inputOf(openCalls)));
      const tag = `${language}${openCalls ? '' : '.record-only'}`;
      expect(await render(mail.html, 390, `forecast-digest-email-390.${tag}.png`), tag).toEqual({ scrollWidth: 390, overflowing: [], tooSmall: [] });
      expect(await render(mail.html, 1366, `forecast-digest-email-1366.${tag}.png`), tag).toEqual({ scrollWidth: 1366, overflowing: [], tooSmall: [] });
    }
  });

  it('the WhatsApp digest as a 390 px phone shows it (template and free text)', async () => {
    for (const openCalls of [true, false]) {
      const digest = whatsappForecastDigest(inputOf(openCalls));
      for (const [kind, text] of [['template', renderTemplate(digest.template, digest.params)], ['text', digest.text]] as const) {
        const layout = await render(bubble(text, language), 390, `forecast-digest-whatsapp-390.${language}${openCalls ? '' : '.record-only'}.${kind}.png`);
        expect(layout).toEqual({ scrollWidth: 390, overflowing: [], tooSmall: [] });
      }
    }
  });
});
