import { describe, expect, it } from 'vitest';
import { buildNavigation } from '../../src/lib/navigation.ts';
import { formatPaise } from '../../src/lib/numbers.ts';
import { findPlan, plans, screenOfPath, SCREENS, screensOf, TRIAL, trialPlan } from '../../src/lib/plans.ts';
import { checkoutPath, choosePath, comparisonSections, planFromQuery, planHighlights } from '../../src/lib/pricing.ts';

const cellsOf = (id: string): string[] => {
  const row = comparisonSections()
    .flatMap((s) => s.rows)
    .find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row.cells.map((c) => (c.included ? c.text : `(${c.text})`));
};

describe('the plan table', () => {
  it('prices every plan GST included and before tax, with the trial plan Premium', () => {
    expect(plans.map((p) => [p.id, p.pricePaise, p.priceBeforeTaxPaise, p.durationDays])).toEqual([
      ['Basic', 550_000, 466_102, 365],
      ['Standard', 1_000_000, 847_458, 365],
      ['Premium', 1_500_000, 1_271_186, 365],
      ['Platinum', 2_500_000, 2_118_644, 365],
    ]);
    expect(trialPlan().id).toBe('Premium');
    expect(TRIAL.days).toBe(2);
  });

  it('sells the team seats and the data feed on Platinum only, and more for more money', () => {
    expect(plans.map((p) => [p.id, p.seats, p.dataFeed, p.historyYears])).toEqual([
      ['Basic', 1, false, 0],
      ['Standard', 1, false, 0],
      ['Premium', 1, false, 5],
      ['Platinum', 5, true, 12],
    ]);
    // Each plan has at least what the cheaper ones have (the plan words "the X plan and up" rely on it).
    for (let i = 1; i < plans.length; i++) {
      const [cheaper, dearer] = [plans[i - 1]!, plans[i]!];
      expect(dearer.pricePaise).toBeGreaterThan(cheaper.pricePaise);
      expect(screensOf(dearer).length).toBeGreaterThanOrEqual(screensOf(cheaper).length);
      expect(dearer.historyYears).toBeGreaterThanOrEqual(cheaper.historyYears);
      expect(dearer.seats).toBeGreaterThanOrEqual(cheaper.seats);
    }
  });

  it('names a screen for every section of the navigation, and each path belongs to one screen', () => {
    for (const item of buildNavigation([])) expect(screenOfPath(item.slug), item.slug).toBeDefined();
    const prefixes = SCREENS.flatMap((s) => s.paths);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(screenOfPath('/crudeoil')).toBeUndefined();
    expect(screenOfPath('/crude/Naphtha')?.id).toBe('feedstock');
  });

  it('formats rupees with Indian grouping, paise only when there are some', () => {
    expect(formatPaise(550_000)).toBe('₹5,500');
    expect(formatPaise(466_102)).toBe('₹4,661.02');
    expect(formatPaise(12_345_678_90)).toBe('₹1,23,45,678.90');
    expect(formatPaise(-1_506)).toBe('−₹15.06');
    expect(formatPaise(0)).toBe('₹0');
  });
});

describe('/pricing: the comparison generated from the table', () => {
  it('has a cell per plan in every row', () => {
    for (const row of comparisonSections().flatMap((s) => s.rows)) expect(row.cells, row.id).toHaveLength(plans.length);
  });

  it.each([
    ['price', ['₹5,500', '₹10,000', '₹15,000', '₹25,000']],
    ['before-tax', ['₹4,661.02 + ₹838.98 GST', '₹8,474.58 + ₹1,525.42 GST', '₹12,711.86 + ₹2,288.14 GST', '₹21,186.44 + ₹3,813.56 GST']],
    ['trial', ['2 days of Premium free on sign-up', '2 days of Premium free on sign-up', '2 days free on sign-up', '2 days of Premium free on sign-up']],
    ['screens', ['(Not included)', '(Not included)', 'Included', 'Included']],
    ['compare', ['(Not included)', '(Not included)', 'Included', 'Included']],
    ['history', ['(No price screens)', '(No price screens)', '5 years (this year and the 5 before it)', '12 years (this year and the 12 before it)']],
    ['limited', ['Included', 'Included', 'Included', 'Included']],
    [
      'daily',
      [
        '22 prices (the 5 benchmarks and the Mumbai city-wise sheet)',
        '124 prices (the 5 benchmarks and the city-wise sheets of all 7 cities)',
        'Any of the 172 prices we publish, chosen by you',
        'Any of the 172 prices we publish, chosen by you',
      ],
    ],
    ['channels', ['WhatsApp and e-mail', 'WhatsApp and e-mail', 'WhatsApp and e-mail', 'WhatsApp and e-mail']],
    ['alerts', ['(Not included)', '(Not included)', 'Included', 'Included']],
    ['bot', ['(Not included)', '(Not included)', 'Included', 'Included']],
    ['seats', ['1 user', '1 user', '1 user', '5 users (you and 4 colleagues)']],
    ['data-feed', ['(Not included)', '(Not included)', '(Not included)', 'Included']],
    ['extras', ['(Not included)', '(Not included)', '(Not included)', 'A seat on a VIP delegation']],
  ] as const)('row %s', (id, cells) => expect(cellsOf(id)).toEqual(cells));

  it('lists what each plan includes on its /subscription card', () => {
    expect(planHighlights(findPlan('Basic')!)).toEqual([
      'Buy and sell leads, VIP delegation reports and event and press-release services',
      'Daily price update: 22 prices (the 5 benchmarks and the Mumbai city-wise sheet)',
      'Daily update by: WhatsApp and e-mail',
      '1 user',
    ]);
    expect(planHighlights(findPlan('Platinum')!)).toContain('5 users (you and 4 colleagues)');
  });

  it.each([
    ['Premium', 'Premium'], ['premium', 'Premium'], ['PLATINUM', 'Platinum'],
    ['Gold', undefined], ['', undefined], [null, undefined], ['Premium ', undefined], ['<script>', undefined], ['Premium&x=1', undefined], ['constructor', undefined],
  ] as const)('?plan=%s picks %s', (value, id) => expect(planFromQuery(value)?.id).toBe(id));

  it('sends "Choose" to sign-up and then checkout, the plan preselected', () => {
    expect(choosePath(findPlan('Premium')!)).toBe('/register?plan=Premium');
    expect(checkoutPath(findPlan('Premium')!)).toBe('/subscription?plan=Premium');
  });
});
