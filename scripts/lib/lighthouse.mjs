// Lighthouse on Debian's Chromium, loopback only: `runLighthouse(url, { cookie, formFactor })`
// returns the category scores (0–100), the metrics and the bytes of one page. Used by
// `npm run bench` (scripts/lib/bench-site.mjs) and `npm run bench:compare`: one function, any
// page, signed in or not. The Chromium flags are playwright.config.ts's no-network ones.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_FLAGS, FULL_CHROMIUM } from './chromium.mjs';

// The full browser by default, as a visitor's is (not the headless shell the tests prefer).
const CHROMIUM = process.env.CHROMIUM_PATH ?? FULL_CHROMIUM;
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
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
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

/** The page's largest-contentful-paint element as Lighthouse saw it (its HTML, shortened). */
export function lcpElement(lhr) {
  const find = (value) => {
    if (!value || typeof value !== 'object') return null;
    if (typeof value.snippet === 'string') return value.snippet;
    for (const child of Object.values(value)) {
      const found = find(child);
      if (found) return found;
    }
    return null;
  };
  // Lighthouse 13 names it in its LCP insight (12 had an audit of its own).
  const snippet = ['lcp-breakdown-insight', 'lcp-discovery-insight', 'largest-contentful-paint-element'].map((id) => find(lhr.audits[id]?.details)).find(Boolean) ?? 'unknown';
  return snippet.length > 110 ? `${snippet.slice(0, 107)}…` : snippet;
}

/**
 * Lighthouse (mobile) on each page `runs` times, anonymous unless a session cookie is given, printing every run and the median
 * run (by performance) of each page against `aim` (category → minimum score). Resolves with
 * true when every median meets it; the failing audits of a median below its aim are printed.
 * @param {string} base the site's origin
 * @param {readonly (readonly [string, string])[]} pages [name, path] pairs
 * @param {{ runs: number, aim: Record<string, number>, cookie?: string }} options
 */
export async function measurePages(base, pages, { runs, aim, cookie }) {
  const width = Math.max(36, ...pages.map(([name]) => name.length));
  const row = (cells) => cells.map(([text, pad], i) => (i === 0 ? String(text).padEnd(pad) : String(text).padStart(pad))).join(' ');
  console.log(`\nLighthouse, mobile preset (simulated slow 4G, 4× CPU), ${runs} run(s) per page, ${cookie ? 'signed in' : 'anonymous'}; aim: ${Object.entries(aim).map(([c, s]) => `${c} ≥ ${s}`).join(', ')}`);
  console.log(`  ${row([['page', width], ['perf', 5], ['a11y', 5], ['bp', 4], ['seo', 4], ['FCP ms', 7], ['LCP ms', 7], ['TBT ms', 7], ['CLS', 6], ['KB', 5]])}`);
  let met = true;
  const medians = [];
  for (const [name, path] of pages) {
    const results = [];
    for (let run = 0; run < runs; run++) {
      const result = await runLighthouse(`${base}${path}`, { formFactor: 'mobile', cookie });
      results.push(result);
      const { scores, metrics, bytes } = result;
      console.log(`  ${row([[name, width], [scores.performance, 5], [scores.accessibility, 5], [scores['best-practices'], 4], [scores.seo, 4], [metrics.fcpMs, 7], [metrics.lcpMs, 7], [metrics.tbtMs, 7], [metrics.cls, 6], [Math.round(bytes / 1024), 5]])}`);
    }
    // The median run by performance: one run on a shared machine can be ten points off.
    results.sort((a, b) => a.scores.performance - b.scores.performance);
    const median = results[Math.floor(results.length / 2)];
    medians.push({ name, path, scores: median.scores, metrics: median.metrics });
    const short = Object.entries(aim).filter(([category, minimum]) => (median.scores[category] ?? 0) < minimum);
    console.log(`  ${''.padEnd(width)} median: ${median.scores.performance} / ${median.scores.accessibility} / ${median.scores['best-practices']} / ${median.scores.seo}  ${path}`);
    console.log(`  ${''.padEnd(width)} largest paint: ${lcpElement(median.lhr)}`);
    if (short.length > 0) {
      met = false;
      for (const [category] of short) for (const audit of failingAudits(median.lhr, category)) console.log(`      ${category}: ${audit}`);
    }
  }
  return { met, medians };
}
