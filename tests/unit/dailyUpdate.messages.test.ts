/**
 * The daily update as a subscriber reads it, in English and Hindi: snapshots of the WhatsApp
 * template (as the phone renders it, and the Cloud API request), the same update as free text,
 * and the e-mail (plain text and HTML) — under tests/unit/__snapshots__/daily-update/, readable
 * files, so a change of words shows in review. And the limits: every update, however many prices
 * it carries, is a request Meta accepts (one line per parameter, at most 1,024 characters filled
 * in, a registered template), with the prices that do not fit counted on a "+N more" line.
 */
import { describe, expect, it } from 'vitest';
import { dailyGroups, groupOf, mailDailyUpdate, whatsappDailyUpdate, type DailyRevision } from '../../src/lib/delivery/dailyUpdate.ts';
import { PRODUCERS } from '../../src/lib/delivery/producers.ts';
import { findInstrument, instruments } from '../../src/lib/delivery/instruments.ts';
import type { DeliveryLanguage } from '../../src/lib/delivery/language.ts';
import { findRegisteredTemplate, graphRefusal, MAX_DAILY_LINES, MAX_DIGEST_LINES, parameterProblem, REGISTERED_TEMPLATES, renderTemplate, TEMPLATE_BODY_MAX, templateDefinitions } from '../../src/lib/delivery/whatsappTemplates.ts';
import { dailyUpdateMail } from '../../src/server/delivery/mailMessages.ts';
import { graphRequestOf } from '../../src/server/delivery/whatsapp.ts';
import { DAY, MORE, price, PRICES, SITE } from './data/dailyPrices.ts';

const SNAPSHOTS = './__snapshots__/daily-update';

describe.each(['en', 'hi'] as const)('the daily update in %s', (language: DeliveryLanguage) => {
  const update = whatsappDailyUpdate({ day: DAY, language, prices: PRICES, moreLink: MORE });
  const request = graphRequestOf({ kind: 'template', to: '919820012345', template: update.template, params: update.params });

  it('WhatsApp: the template as the phone shows it, its request, and the free text (snapshots)', async () => {
    await expect(renderTemplate(update.template, update.params)).toMatchFileSnapshot(`${SNAPSHOTS}/whatsapp.${language}.template.txt`);
    await expect(`${JSON.stringify(request, null, 2)}\n`).toMatchFileSnapshot(`${SNAPSHOTS}/whatsapp.${language}.request.json`);
    await expect(update.text).toMatchFileSnapshot(`${SNAPSHOTS}/whatsapp.${language}.text.txt`);
  });

  it('WhatsApp: a request Meta accepts, one line per price, grouped, names in bold, one More link', () => {
    expect(graphRefusal(request)).toBeNull();
    expect(update.template.name).toBe(`polyindex_daily_update_${update.params.length - 2}`);
    expect(update.template.language).toBe(language);
    for (const param of update.params) expect(parameterProblem(param), param).toBeNull();
    const body = renderTemplate(update.template, update.params);
    expect(body.length).toBeLessThanOrEqual(TEMPLATE_BODY_MAX);
    // Three group headings, eight prices, each price on its own line with its name in bold.
    expect(update.params.slice(1, -1)).toHaveLength(3 + PRICES.length);
    expect(update.params.slice(1, -1).filter((line) => /^\*[^*]+\* /.test(line))).toHaveLength(PRICES.length);
    expect(body.match(/https?:\/\//g)).toHaveLength(1);
    expect(update.text.match(/https?:\/\//g)).toHaveLength(1);
    expect(update.text).toContain(MORE);
  });

  it('e-mail: a table per group with its link, and a plain-text part (snapshots)', async () => {
    const mail = dailyUpdateMail({ siteUrl: SITE, linkSecret: 'snapshot-secret', now: () => new Date('2026-11-24T04:30:00Z') }, 'trader@example.test', 'u-snapshot', mailDailyUpdate({ day: DAY, language, prices: PRICES, settingsLink: `${SITE}/alerts` }));
    await expect(mail.text).toMatchFileSnapshot(`${SNAPSHOTS}/email.${language}.txt`);
    await expect(mail.html).toMatchFileSnapshot(`${SNAPSHOTS}/email.${language}.html`);
    expect(mail.html.match(/<table role="table"/g)).toHaveLength(1);
    expect(mail.html.match(/<tbody>/g)).toHaveLength(3);
    // One link per group (the reader's plan opens each group's screen), then settings and unsubscribe.
    expect(mail.html.match(/<a href=/g)).toHaveLength(3 + 2);
  });
});

describe('limits', () => {
  it('thirty prices: the template carries what fits in 1,024 characters and MAX_DAILY_LINES lines, the rest on a "+N more" line', () => {
    const thirty = instruments.filter((i) => i.source.kind === 'city').slice(0, 30).map((i) => price(i.id, ['2026-11-20', 123456.78], ['2026-11-13', 120000]));
    for (const language of ['en', 'hi'] as const) {
      const update = whatsappDailyUpdate({ day: DAY, language, prices: thirty, moreLink: MORE });
      const lines = update.params.slice(1, -1);
      expect(lines.length).toBeLessThanOrEqual(MAX_DAILY_LINES);
      expect(renderTemplate(update.template, update.params).length).toBeLessThanOrEqual(TEMPLATE_BODY_MAX);
      const shown = lines.filter((l) => l.startsWith('*')).length;
      expect(lines.at(-1)).toContain(`+${30 - shown}`);
      expect(graphRefusal(graphRequestOf({ kind: 'template', to: '1', template: update.template, params: update.params }))).toBeNull();
      // Free text has room for all thirty.
      expect(update.text.match(/^\*[^*]+\* /gm)).toHaveLength(30);
    }
  });

  it('every registered template is valid as Meta registers them: body ≤ 1,024, numbered parameters with samples, no parameter at the edges of a utility body', () => {
    expect(REGISTERED_TEMPLATES).toHaveLength(2 * (MAX_DAILY_LINES + MAX_DIGEST_LINES + 2));
    for (const template of REGISTERED_TEMPLATES) {
      const numbers = [...template.body.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1]));
      expect(numbers, template.name).toEqual(numbers.map((_, i) => i + 1));
      expect(template.samples, template.name).toHaveLength(numbers.length);
      expect(renderTemplate(template, template.samples).length, template.name).toBeLessThanOrEqual(TEMPLATE_BODY_MAX);
      for (const sample of template.samples) expect(parameterProblem(sample), sample).toBeNull();
      if (template.category === 'UTILITY') expect(template.body, template.name).toMatch(/^[^{][\s\S]*[^}]$/);
      expect(findRegisteredTemplate(template.name, template.language)).toBe(template);
    }
    expect(templateDefinitions()[0]).toMatchObject({ name: 'polyindex_daily_update_1', language: 'en', category: 'UTILITY', components: [{ type: 'BODY', example: { body_text: [expect.any(Array)] } }] });
  });

  it('groups: feedstocks and the rupee, the Indian market (city sheets, Mumbai ex-works), CIF', () => {
    expect(groupOf(findInstrument('fx.usdinr')!)).toBe('feedstocks');
    expect(groupOf(findInstrument('historical.ppRaffia.mumbai')!)).toBe('india');
    expect(groupOf(findInstrument('historical.ppRaffia.cif-ns')!)).toBe('international');
    expect(dailyGroups(PRICES, 'en', DAY).map((g) => [g.title, g.rows.length])).toEqual([['Feedstocks', 4], ['Indian market', 3], ['CIF / international', 1]]);
  });
});

describe.each(['en', 'hi'] as const)('producer revisions in the daily update, %s', (language: DeliveryLanguage) => {
  const reliance = PRODUCERS.find((p) => p.id === 'reliance')!;
  const gail = PRODUCERS.find((p) => p.id === 'gail')!;
  const screen = `${SITE}/indian-bazaar/rateRevision?producer=reliance`;
  const revisions: DailyRevision[] = [
    { producer: reliance, grade: 'ppRaffia', place: 'ex-works Jamnagar', latest: { date: '2026-11-24', value: 106 }, previous: { date: '2026-11-17', value: 104.5 }, screen },
    { producer: gail, grade: 'hdpeFilm', place: 'ex-depot Delhi', latest: { date: '2026-11-23', value: 108 }, previous: { date: '2026-11-09', value: 110 }, screen },
  ];

  it('come last, as a group of their own with each revision’s ± and date, on WhatsApp and by e-mail (snapshots)', async () => {
    const update = whatsappDailyUpdate({ day: DAY, language, prices: PRICES, revisions, moreLink: MORE });
    await expect(update.text).toMatchFileSnapshot(`${SNAPSHOTS}/revisions.whatsapp.${language}.text.txt`);
    expect(graphRefusal(graphRequestOf({ kind: 'template', to: '919820012345', template: update.template, params: update.params }))).toBeNull();
    const groups = dailyGroups(PRICES, language, DAY, revisions);
    expect(groups.at(-1)!.key).toBe('producers');
    expect(groups.at(-1)!.rows.map((r) => [r.line?.change, r.otherDay])).toEqual(
      language === 'en' ? [['▲1.50 (1.44%)', '24 Nov'], ['▼2.00 (1.82%)', '23 Nov']] : [[expect.stringMatching(/^▲1\.50/), expect.any(String)], [expect.stringMatching(/^▼2\.00/), expect.any(String)]],
    );
    const mail = dailyUpdateMail({ siteUrl: SITE, linkSecret: 'snapshot-secret', now: () => new Date('2026-11-24T04:30:00Z') }, 'trader@example.test', 'u-snapshot', mailDailyUpdate({ day: DAY, language, prices: PRICES, revisions, settingsLink: `${SITE}/alerts` }));
    await expect(mail.text).toMatchFileSnapshot(`${SNAPSHOTS}/revisions.email.${language}.txt`);
    expect(mail.html).toContain(screen.replace(/&/g, '&amp;'));
  });

  it('none: no group', () => {
    expect(dailyGroups(PRICES, language, DAY, []).map((g) => g.key)).not.toContain('producers');
  });
});
