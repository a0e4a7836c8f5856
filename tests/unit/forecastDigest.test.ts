/**
 * The weekly forecast digest as a subscriber reads it, in English and Hindi: snapshots of the
 * WhatsApp template (as the phone renders it, and the Cloud API request), the same digest as free
 * text, and the e-mail (plain text and HTML), under tests/unit/__snapshots__/forecast-digest/.
 * And the rules: Meta takes every digest (one line per parameter, 1,024 characters filled in, a
 * registered template); readers without the outlook pages get no open call and no price level;
 * only matured calls are scored; Mondays at the daily hour inside the window.
 */
import { describe, expect, it } from 'vitest';
import { cellText, digestSection, digestSeriesOf, mailForecastDigest, MAX_DIGEST_PRODUCTS, whatsappForecastDigest, type DigestInput } from '../../src/lib/delivery/forecastDigest.ts';
import type { DeliveryLanguage } from '../../src/lib/delivery/language.ts';
import { weeklyDigestSlotOf } from '../../src/lib/delivery/schedule.ts';
import { findRegisteredTemplate, graphRefusal, MAX_DIGEST_LINES, parameterProblem, renderTemplate, TEMPLATE_BODY_MAX } from '../../src/lib/delivery/whatsappTemplates.ts';
import { pricePredictionSeriesIds } from '../../src/lib/forecasts/coverage.ts';
import { forecastDigestMail } from '../../src/server/delivery/mailMessages.ts';
import { graphRequestOf } from '../../src/server/delivery/whatsapp.ts';
import { DIGEST_DAY, PRODUCTS, SITE } from './data/forecastDigest.ts';

const SNAPSHOTS = './__snapshots__/forecast-digest';
const input = (language: DeliveryLanguage, over: Partial<DigestInput> = {}): DigestInput => ({
  day: DIGEST_DAY,
  language,
  products: PRODUCTS,
  openCalls: true,
  openCallPlans: 'Premium and Platinum',
  moreLink: `${SITE}/indian-bazaar/pricePrediction`,
  settingsLink: `${SITE}/alerts`,
  ...over,
});
const context = { siteUrl: SITE, linkSecret: 'snapshot-secret', now: () => new Date('2026-11-30T03:30:00Z') };

describe.each(['en', 'hi'] as const)('the weekly forecast digest in %s', (language) => {
  const digest = whatsappForecastDigest(input(language));
  const request = graphRequestOf({ kind: 'template', to: '919820012345', template: digest.template, params: digest.params });

  it('WhatsApp: the template as the phone shows it, its request, and the free text (snapshots)', async () => {
    await expect(renderTemplate(digest.template, digest.params)).toMatchFileSnapshot(`${SNAPSHOTS}/whatsapp.${language}.template.txt`);
    await expect(`${JSON.stringify(request, null, 2)}\n`).toMatchFileSnapshot(`${SNAPSHOTS}/whatsapp.${language}.request.json`);
    await expect(digest.text).toMatchFileSnapshot(`${SNAPSHOTS}/whatsapp.${language}.text.txt`);
  });

  it('WhatsApp: a request Meta accepts, both products, one link', () => {
    expect(graphRefusal(request)).toBeNull();
    expect(digest.template.name).toBe(`polyindex_forecast_digest_${digest.params.length - 2}`);
    expect(findRegisteredTemplate(digest.template.name, language)).toEqual(digest.template);
    for (const param of digest.params) expect(parameterProblem(param), param).toBeNull();
    expect(renderTemplate(digest.template, digest.params).length).toBeLessThanOrEqual(TEMPLATE_BODY_MAX);
    expect(digest.params.filter((p) => p.startsWith('📈'))).toHaveLength(2);
    expect(renderTemplate(digest.template, digest.params).match(/https?:\/\//g)).toHaveLength(1);
    expect(digest.text.match(/https?:\/\//g)).toHaveLength(1);
  });

  it('e-mail: one table, a section per product with its link, and a plain-text part (snapshots)', async () => {
    const mail = forecastDigestMail(context, 'trader@example.test', 'u-snapshot', mailForecastDigest(input(language)));
    await expect(mail.text).toMatchFileSnapshot(`${SNAPSHOTS}/email.${language}.txt`);
    await expect(mail.html).toMatchFileSnapshot(`${SNAPSHOTS}/email.${language}.html`);
    expect(mail.html).toContain(`<html lang="${language}"`);
    expect(mail.html.match(/<table role="table"/g)).toHaveLength(1);
    expect(mail.html.match(/<tbody>/g)).toHaveLength(2);
    // A link per product, then settings and the digest's own unsubscribe link.
    expect(mail.html.match(/<a href=/g)).toHaveLength(2 + 2);
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });
});

describe('what the digest says', () => {
  it('per product: the open call of each horizon beside the baseline, the scored calls with their twins, the 12-month record', () => {
    const section = digestSection(PRODUCTS[0]!, input('en'));
    expect(section.title).toBe('PP Raffia · Mumbai ex-works (incl. GST) · ₹/kg');
    expect(section.rows.map((r) => [r.kind, r.label, cellText(r.desk), cellText(r.baseline)])).toEqual([
      ['open', '1 week, to 4 Dec', '▲ Up 104–107', '▶ Flat 102.1–106.3'],
      ['open', '1 month, to 2 Dec', '▼ Down 98–103', '▶ Flat 100.2–108.4'],
      ['open', '3 months, to 27 Feb 2027', 'no open call', '▶ Flat 95.6–113.2'],
      ['scored', 'Scored: 1 week, to 20 Nov · came 105.5', '▲ Up 104–107: ✓ in range, ✓ direction', '▶ Flat 101.9–106.1: ✓ in range, ✗ direction'],
      ['scored', 'Scored: 1 week, to 13 Nov · came 104', '▼ Down 100–103: ✗ outside range, ✗ direction', '—'],
      // The call scored today (30 Nov) has not matured: the record counts two calls.
      ['record', '12 months, 2 calls (in range · direction right)', '50% · 50%', '100% · 0%'],
    ]);
  });

  it('a plan without the outlook pages: no open call, no baseline range, no price level; scored calls as changes from their base', () => {
    const plain = input('en', { openCalls: false });
    const section = digestSection(PRODUCTS[0]!, plain);
    expect(section.rows.map((r) => r.kind)).toEqual(['scored', 'scored', 'record']);
    expect(section.rows[0]).toMatchObject({ label: 'Scored: 1 week, to 20 Nov · came +2.4%', desk: { call: '▲ Up +1.0% to +3.9%', score: '✓ in range, ✓ direction' } });
    const whatsapp = whatsappForecastDigest(plain);
    expect(whatsapp.params[1]).toBe("The desk's open calls and the baseline's range come with Premium and Platinum. Here: the scored calls and the record.");
    for (const text of [whatsapp.text, forecastDigestMail(context, 'a@example.test', 'u', mailForecastDigest(plain)).text]) {
      expect(text).not.toContain('104–107');
      expect(text).not.toContain('to 4 Dec');
      expect(text).not.toContain('105.5');
    }
  });

  it('many products: whole products while the template fits (1,024 characters, MAX_DIGEST_LINES), then "+N more products"', () => {
    const many = input('hi', { products: Array.from({ length: MAX_DIGEST_PRODUCTS }, () => PRODUCTS[0]!) });
    const digest = whatsappForecastDigest(many);
    const lines = digest.params.slice(1, -1);
    expect(lines.length).toBeLessThanOrEqual(MAX_DIGEST_LINES);
    expect(renderTemplate(digest.template, digest.params).length).toBeLessThanOrEqual(TEMPLATE_BODY_MAX);
    const shown = lines.filter((l) => l.startsWith('📈')).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(MAX_DIGEST_PRODUCTS);
    expect(lines.at(-1)).toBe(`+${MAX_DIGEST_PRODUCTS - shown} और उत्पाद नीचे दिए लिंक पर`);
    expect(graphRefusal(graphRequestOf({ kind: 'template', to: '919820012345', template: digest.template, params: digest.params }))).toBeNull();
    // The free text has room for all of them.
    expect(digest.text.match(/📈/g)).toHaveLength(MAX_DIGEST_PRODUCTS);
  });

  it('which products: the forecast series of the prices the reader follows, in their order, at most five; none forecast: the Mumbai grades', () => {
    expect(digestSeriesOf(['city.mumbai.ppRaffia', 'fx.usdinr', 'historical.ppRaffia.mumbai', 'feedstock.naphtha.japan'])).toEqual(['historical.ppRaffia.mumbai', 'feedstock.naphtha.japan']);
    expect(digestSeriesOf(['fx.usdinr'])).toEqual(pricePredictionSeriesIds.slice(0, MAX_DIGEST_PRODUCTS));
    expect(digestSeriesOf([])).toHaveLength(MAX_DIGEST_PRODUCTS);
  });
});

describe('when the digest goes', () => {
  const ist = (day: string, time: string) => new Date(`${day}T${time}:00+05:30`);
  it.each([
    ['Monday 09:00 IST, hour 9', 9, ist('2026-11-30', '09:00'), { due: true, day: '2026-11-30' }],
    ['Monday 11:59 IST, hour 9 (inside the 3-hour window)', 9, ist('2026-11-30', '11:59'), { due: true, day: '2026-11-30' }],
    ['Monday 12:00 IST, hour 9 (the window has closed)', 9, ist('2026-11-30', '12:00'), { due: false }],
    ['Monday 08:59 IST, hour 9', 9, ist('2026-11-30', '08:59'), { due: false }],
    ['Tuesday 09:00 IST, hour 9', 9, ist('2026-12-01', '09:00'), { due: false }],
    ['Sunday 09:00 IST, hour 9', 9, ist('2026-11-29', '09:00'), { due: false }],
    ["Tuesday 00:30 IST, hour 23 (Monday's window runs past midnight)", 23, ist('2026-12-01', '00:30'), { due: true, day: '2026-11-30' }],
    ["Monday 00:30 IST, hour 23 (Sunday's window)", 23, ist('2026-11-30', '00:30'), { due: false }],
  ] as const)('%s', (_, hour, now, expected) => {
    expect(weeklyDigestSlotOf(hour, now, 3)).toEqual(expected);
  });
});
