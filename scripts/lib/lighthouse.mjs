// Lighthouse (the npm package) on Debian's Chromium, offline: the same no-network flags as
// playwright.config.ts. Used by `npm run bench`.
//
//   const { scores, metrics } = await runLighthouse('http://127.0.0.1:4599/crude/Naphtha', { cookie: '__session=…', formFactor: 'mobile' });
//
// `formFactor` 'mobile' is Lighthouse's default run (a mid-range phone: 4× CPU slowdown and a
// slow-4G network, simulated); 'desktop' its desktop preset. Returns the category scores
// (0–100), the metrics in ms (CLS unitless), and the bytes the page transferred.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * @param {string} url
 * @param {{ cookie?: string, formFactor?: 'mobile' | 'desktop' }} [options]
 */
export async function runLighthouse(url, { cookie, formFactor = 'mobile' } = {}) {
  const userDataDir = resolve('.cache/lighthouse-profile');
  mkdirSync(userDataDir, { recursive: true });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS, userDataDir, logLevel: 'silent' });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const numeric = (id) => lhr.audits[id]?.numericValue ?? null;
    return {
      url,
      formFactor,
      scores: { performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices'), seo: score('seo') },
      metrics: {
        fcp: numeric('first-contentful-paint'),
        lcp: numeric('largest-contentful-paint'),
        tbt: numeric('total-blocking-time'),
        cls: numeric('cumulative-layout-shift'),
        speedIndex: numeric('speed-index'),
      },
      bytes: numeric('total-byte-weight'),
      finalUrl: lhr.finalDisplayedUrl,
    };
  } finally {
    chrome.kill();
  }
}
