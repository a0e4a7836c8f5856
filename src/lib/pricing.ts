/**
 * The plan comparison of /pricing, generated from the plan table (pure): sections of rows, each
 * row one fact with a cell per plan in the table's order. The page lays it out as a table (wide
 * screens) and as one card per plan (phones); nothing here is written per plan by hand.
 */
import { findInstrument, instruments } from './delivery/instruments.ts';
import { dailyChoicesOf } from './delivery/rights.ts';
import { cities } from './catalog.ts';
import { GST_RATE_PERCENT } from './gst/tax.ts';
import { andList, capitalize, findPlan, hasCompare, opensScreen, plans, SCREENS, TRIAL, trialPlan, type DeliveryChannel, type Plan } from './plans.ts';
import { formatPaise } from './numbers.ts';

export interface ComparisonCell {
  readonly text: string;
  /** False draws the cell as "not included". */
  readonly included: boolean;
}

export interface ComparisonRow {
  readonly id: string;
  readonly label: string;
  /** A line under the label that says what the row means. */
  readonly note?: string;
  /** The note is needed to read the cells (the plan cards on phones show it too). */
  readonly noteExplainsCells?: boolean;
  /** One per plan, in the plan table's order. */
  readonly cells: readonly ComparisonCell[];
}

export interface ComparisonSection {
  readonly title: string;
  readonly rows: readonly ComparisonRow[];
}

/** The data feed is sold with the plans whose `dataFeed` is set (API keys on /account/api-keys, documented on /developers). */
export const DATA_FEED_OPEN = true;

const CHANNEL_NAMES: Readonly<Record<DeliveryChannel, string>> = { whatsapp: 'WhatsApp', email: 'e-mail' };
const yes = (text = 'Included'): ComparisonCell => ({ text, included: true });
const no: ComparisonCell = { text: 'Not included', included: false };
const row = (id: string, label: string, cell: (plan: Plan) => ComparisonCell, note?: string): ComparisonRow => ({ id, label, cells: plans.map(cell), ...(note ? { note } : {}) });

const priceScreens = SCREENS.filter((s) => s.opensWith === 'full' && s.id !== 'compare');
const limitedScreens = SCREENS.filter((s) => s.opensWith === 'limited');

/** The benchmark prices every daily update may carry (the instruments every plan's choices name). */
function benchmarkNames(): string[] {
  const basic = plans.find((p) => p.delivery.dailyChoices !== 'all')?.delivery.dailyChoices;
  if (!basic || basic === 'all') return [];
  return basic.instruments.map((id) => findInstrument(id)?.label ?? id);
}

/** "27 prices: the 5 benchmarks and the Mumbai city-wise sheet", "Any of 172 prices". */
export function dailyUpdateText(plan: Plan): string {
  const choices = plan.delivery.dailyChoices;
  if (choices === 'all') return `Any of the ${instruments.length} prices we publish, chosen by you`;
  const count = dailyChoicesOf(plan.delivery).length;
  const sheets = choices.citySheets.map((slug) => cities.find((c) => c.slug === slug)?.name ?? slug);
  const where = sheets.length === 1 ? `the ${sheets[0]!} city-wise sheet` : sheets.length === cities.length ? `the city-wise sheets of all ${sheets.length} cities` : `the city-wise sheets of ${andList(sheets)}`;
  return `${count} prices (the ${choices.instruments.length} benchmarks and ${where})`;
}

function historyText(plan: Plan): ComparisonCell {
  if (!opensScreen(plan, priceScreens[0]!)) return { text: 'No price screens', included: false };
  return yes(`${plan.historyYears} years (this year and the ${plan.historyYears} before it)`);
}

export function comparisonSections(): ComparisonSection[] {
  const trial = trialPlan();
  const gst = (plan: Plan) => plan.pricePaise - plan.priceBeforeTaxPaise;
  return [
    {
      title: 'Price',
      rows: [
        row('price', 'A year, GST included', (p) => yes(formatPaise(p.pricePaise))),
        row('before-tax', 'Before tax', (p) => yes(`${formatPaise(p.priceBeforeTaxPaise)} + ${formatPaise(gst(p))} GST`), `${GST_RATE_PERCENT}% GST; a GST tax invoice with your GSTIN`),
        row('trial', 'Free trial', (p) => yes(p.id === trial.id ? `${TRIAL.days} days free on sign-up` : `${TRIAL.days} days of ${trial.name} free on sign-up`), 'No card needed'),
      ],
    },
    {
      title: 'On the website',
      rows: [
        row('screens', 'Every price screen', (p) => (opensScreen(p, priceScreens[0]!) ? yes() : no), capitalize(andList(priceScreens.map((s) => s.name)))),
        row('compare', 'Compare and export', (p) => (hasCompare(p) ? yes() : no), 'Any prices on one chart, in ₹/kg or US$/t; CSV, Excel and images'),
        row('history', 'History on the screens', historyText),
        row('limited', capitalize(andList(limitedScreens.map((s) => s.name))), (p) => (opensScreen(p, limitedScreens[0]!) ? yes() : no)),
      ],
    },
    {
      title: 'Delivered to you',
      rows: [
        { ...row('daily', 'Daily price update', (p) => (p.delivery.dailyUpdate ? yes(dailyUpdateText(p)) : no), `Benchmarks: ${andList(benchmarkNames())}`), noteExplainsCells: true },
        row('channels', 'Daily update by', (p) => (p.delivery.dailyUpdate ? yes(andList(p.delivery.channels.map((c) => CHANNEL_NAMES[c]))) : no), 'At the hour you choose (IST)'),
        row('alerts', 'Price alerts', (p) => (p.delivery.alerts ? yes() : no), 'Above, below or a daily move, by WhatsApp or e-mail'),
        row('bot', 'WhatsApp price bot', (p) => (p.delivery.priceBot ? yes() : no), 'Ask "naphtha" or "pp raffia mumbai", get the latest price'),
      ],
    },
    {
      title: 'For your firm',
      rows: [
        row('seats', 'Users', (p) => yes(p.seats === 1 ? '1 user' : `${p.seats} users (you and ${p.seats - 1} colleagues)`)),
        row('data-feed', 'Data feed (API keys)', (p) => (p.dataFeed ? yes(DATA_FEED_OPEN ? 'Included' : 'Included when it opens') : no), 'Prices into Excel, Google Sheets and your own systems (see /developers)'),
        ...(plans.some((p) => p.extras.length > 0) ? [row('extras', 'Also', (p) => (p.extras.length > 0 ? yes(andList(p.extras)) : no))] : []),
      ],
    },
  ];
}

/** The plan a `?plan=` names (case-insensitive), or undefined: the only way a query picks a plan. */
export const planFromQuery = (value: string | null | undefined): Plan | undefined => (value && /^[A-Za-z]{1,20}$/.test(value) ? findPlan(value) : undefined);

/** Where "Choose" goes: sign-up (or, signed in, checkout) with the plan preselected. */
export const choosePath = (plan: Plan): string => `/register?plan=${plan.id}`;

/** Checkout with a plan preselected. */
export const checkoutPath = (plan: Plan): string => `/subscription?plan=${plan.id}`;

/** A plan's included rows as short lines (the /subscription cards), from the same comparison. */
export function planHighlights(plan: Plan): string[] {
  const i = plans.indexOf(plan);
  return comparisonSections()
    .filter((section) => section.title !== 'Price')
    .flatMap((section) => section.rows)
    .filter((row) => row.cells[i]?.included)
    .map((row) => {
      const text = row.cells[i]!.text;
      if (text === 'Included') return row.label;
      return row.id === 'seats' || row.id === 'extras' ? text : `${row.label}: ${text}`;
    });
}
