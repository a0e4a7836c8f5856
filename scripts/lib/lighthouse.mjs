// Lighthouse on Debian's Chromium, loopback only: `runLighthouse(url, { cookie, formFactor })`
// returns the category scores (0–100), the metrics and the bytes of one page. Used by
// `npm run bench` (scripts/lib/bench-site.mjs) and `npm run bench:compare`: one function, any
// page, signed in or not. The Chromium flags are playwright.config.ts's no-network ones.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/**
 * @param {string} url a page on this machine
 * @param {{ cookie?: string, formFactor?: 'mobile' | 'desktop', categories?: string[] }} [options]
 *   cookie: a `name=value` Cookie header (a session); formFactor: Lighthouse's mobile (default:
 *   Moto G Power, simulated slow 4G and 4× CPU) or desktop preset
 * @returns {Promise<{ url: string, formFactor: string, scores: Record<string, number>, metrics: Record<string, number>, bytes: number, lhr: unknown }>}
 */
export async function runLighthouse(url, { cookie, formFactor = 'mobile', categories = CATEGORIES } = {}) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    // Keep Chromium off the network: nothing but the page's own loopback origin.
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: categories,
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    };
    const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const scores = Object.fromEntries(Object.entries(lhr.categories).map(([id, category]) => [id, Math.round((category.score ?? 0) * 100)]));
    const metric = (id) => Math.round(Number(lhr.audits[id]?.numericValue ?? NaN));
    const metrics = {
      fcpMs: metric('first-contentful-paint'),
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
      speedIndexMs: metric('speed-index'),
    };
    // Bytes the page transferred (Lighthouse's total-byte-weight).
    const bytes = Math.round(Number(lhr.audits['total-byte-weight']?.numericValue ?? NaN));
    return { url, formFactor, scores, metrics, bytes, lhr };
  } finally {
    chrome.kill();
  }
}

/** The audits of a category that did not pass, for a report (id and title). */
export function failingAudits(lhr, category) {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'notApplicable' && audit.scoreDisplayMode !== 'manual')
    .map((audit) => `${audit.id}: ${audit.title}`);
}
