/**
 * The plan table: what each plan costs, how long it lasts and everything it gives — the screens
 * it opens, what its daily update carries and on which channels, alerts, the price bot, how
 * many years of history the screens reach, how many people may use it, and API access. Data, in
 * one place: the access policy, delivery rights, the history rule, /pricing, /subscription and
 * the paywall notices read it; nothing else prices a plan or names what it gives.
 */
import { cities } from './catalog.ts';
import { taxableValueOf } from './gst/tax.ts';
import { YEARS_BACK } from './years.ts';

/** What a plan unlocks on the website: the limited set, or every data screen. */
export type PlanAccess = 'limited' | 'full';

export type PlanId = 'Basic' | 'Standard' | 'Premium' | 'Platinum';

export interface Plan {
  readonly id: PlanId;
  readonly name: string;
  /** Who it is for, in one line (the /pricing card). */
  readonly summary: string;
  /** Price in paise (₹1 = 100 paise), GST included. */
  readonly pricePaise: number;
  /** Price before tax (the taxable value of the price, src/lib/gst/tax.ts), in paise. */
  readonly priceBeforeTaxPaise: number;
  readonly durationDays: number;
  /** Which screens it opens (SCREENS below, by their `opensWith`). */
  readonly access: PlanAccess;
  /** What the plan delivers by WhatsApp and e-mail (src/lib/delivery/rights.ts reads it). */
  readonly delivery: DeliveryRights;
  /**
   * How many calendar years before the current one the data screens and data API reach
   * (src/lib/access/history.ts): 5 in 2026 opens 2021–2026. 0 for plans without data screens.
   */
  readonly historyYears: number;
  /** How many people may use the plan: the buyer and (seats − 1) colleagues they invite. */
  readonly seats: number;
  /** The data feed: API keys for `/api/v1/**` (issue 25 builds it). */
  readonly dataFeed: boolean;
  /** What else it includes that no other row of the table says. */
  readonly extras: readonly string[];
}

/** The channels a daily update and alerts can go by. */
export type DeliveryChannel = 'whatsapp' | 'email';

/** Price delivery a plan includes: the daily update, threshold alerts, the WhatsApp price bot. */
export interface DeliveryRights {
  readonly dailyUpdate: boolean;
  /** The channels its daily update may use (the subscriber turns each on in /alerts). */
  readonly channels: readonly DeliveryChannel[];
  readonly alerts: boolean;
  readonly priceBot: boolean;
  /** The daily update's series when the subscriber has not chosen any (delivery instrument ids). */
  readonly dailyDefaults: readonly string[];
  /** What the subscriber may put in the daily update (src/lib/delivery/rights.ts reads it). */
  readonly dailyChoices: DailyChoices;
}

/**
 * The prices a plan's daily update may carry: every price delivery knows, or the named
 * instruments (ids) and every grade of the named cities' sheets (city slugs).
 */
export type DailyChoices = 'all' | { readonly instruments: readonly string[]; readonly citySheets: readonly string[] };

export const DELIVERY_CHANNELS: readonly DeliveryChannel[] = ['whatsapp', 'email'];

/** The market's headline prices: the feedstocks every polymer price follows and the rupee. */
const BENCHMARK_INSTRUMENTS = ['feedstock.crude.brent', 'feedstock.naphtha.japan', 'feedstock.propylene.korea', 'feedstock.ethylene.nea', 'fx.usdinr'];
/**
 * Basic (no price screens): the benchmarks and Mumbai's city-wise sheet (every grade), the
 * benchmark city Indian traders quote. Standard adds every other city's sheet. Premium and up
 * choose from every price (docs/delivery.md, "What a subscriber gets").
 */
const MUMBAI_BENCHMARKS: DailyChoices = { instruments: BENCHMARK_INSTRUMENTS, citySheets: ['mumbai'] };
const EVERY_CITY_BENCHMARKS: DailyChoices = { instruments: BENCHMARK_INSTRUMENTS, citySheets: cities.map((c) => c.slug) };
const LIMITED_DAILY = ['feedstock.crude.brent', 'feedstock.naphtha.japan', 'city.mumbai.ppRaffia', 'city.mumbai.hdpeFilm', 'fx.usdinr'];
const FULL_DAILY = [
  ...LIMITED_DAILY,
  'feedstock.propylene.korea',
  'feedstock.ethylene.nea',
  'historical.ppRaffia.cif-ns',
  'city.mumbai.lldpeFilm',
  'city.mumbai.pvcExtrusion',
];
const updatesOnly = (dailyChoices: DailyChoices): DeliveryRights => ({ dailyUpdate: true, channels: DELIVERY_CHANNELS, alerts: false, priceBot: false, dailyDefaults: LIMITED_DAILY, dailyChoices });
/** Premium and up: the daily update with any price, alerts and the price bot. */
export const FULL_DELIVERY: DeliveryRights = { dailyUpdate: true, channels: DELIVERY_CHANNELS, alerts: true, priceBot: true, dailyDefaults: FULL_DAILY, dailyChoices: 'all' };

const YEAR = 365;
const plan = (p: Omit<Plan, 'priceBeforeTaxPaise'>): Plan => ({ ...p, priceBeforeTaxPaise: taxableValueOf(p.pricePaise) });

export const plans: readonly Plan[] = [
  plan({
    id: 'Basic',
    name: 'Basic',
    summary: 'The morning benchmarks on your phone.',
    pricePaise: 5_500_00,
    durationDays: YEAR,
    access: 'limited',
    delivery: updatesOnly(MUMBAI_BENCHMARKS),
    historyYears: 0,
    seats: 1,
    dataFeed: false,
    extras: [],
  }),
  plan({
    id: 'Standard',
    name: 'Standard',
    summary: 'Benchmarks and the city-wise rates of every city we cover.',
    pricePaise: 10_000_00,
    durationDays: YEAR,
    access: 'limited',
    delivery: updatesOnly(EVERY_CITY_BENCHMARKS),
    historyYears: 0,
    seats: 1,
    dataFeed: false,
    extras: [],
  }),
  plan({
    id: 'Premium',
    name: 'Premium',
    summary: 'Every price screen, alerts and the price bot for one trader.',
    pricePaise: 15_000_00,
    durationDays: YEAR,
    access: 'full',
    delivery: FULL_DELIVERY,
    historyYears: 5,
    seats: 1,
    dataFeed: false,
    extras: [],
  }),
  plan({
    id: 'Platinum',
    name: 'Platinum',
    summary: 'The whole archive for a team, with the data feed.',
    pricePaise: 25_000_00,
    durationDays: YEAR,
    access: 'full',
    delivery: FULL_DELIVERY,
    historyYears: YEARS_BACK,
    seats: 5,
    dataFeed: true,
    extras: ['A seat on a VIP delegation'],
  }),
];

/** Plan ids are matched case-insensitively: stored records say "Premium", forms may say "premium". */
export const findPlan = (id: string | undefined | null): Plan | undefined =>
  id ? plans.find((p) => p.id.toLowerCase() === id.toLowerCase()) : undefined;

/** The legacy `{amount}` body names a plan only when it is exactly one plan's price. */
export const findPlanByRupees = (rupees: number): Plan | undefined => plans.find((p) => p.pricePaise === rupees * 100);

/** An unknown plan on a subscribed record unlocks everything, as the legacy rule did for "other plans". */
export const planAccess = (id: string | undefined | null): PlanAccess => findPlan(id)?.access ?? 'full';

/**
 * The free trial of every new account: two days with what this plan gives (the access policy's
 * trial row, delivery rights and the history rule read it), no card asked.
 */
export const TRIAL = { days: 2, planId: 'Premium' } as const satisfies { days: number; planId: PlanId };
export const trialPlan = (): Plan => findPlan(TRIAL.planId)!;

/**
 * The sections of the site and what opens them. Screens that need `limited` are the limited set
 * of the access policy (plans without data screens open them too); every other page is `full`
 * by the policy's default, and these rows only name them (the paywall notice, /pricing).
 * `name` is plural and lower case (it may stand mid-sentence): "Feedstock charts … are in Premium and Platinum.""
 */
export interface Screen {
  /** The paywall notice's key (`?locked=feedstock`). */
  readonly id: string;
  readonly name: string;
  /** Path prefixes (a prefix covers itself and everything under it). */
  readonly paths: readonly string[];
  readonly opensWith: PlanAccess;
}

export const SCREENS: readonly Screen[] = [
  { id: 'feedstock', name: 'feedstock charts (crude, naphtha, olefins, monomers)', paths: ['/crude'], opensWith: 'full' },
  { id: 'indian-bazaar', name: 'city-wise Indian prices and their history', paths: ['/indian-bazaar'], opensWith: 'full' },
  { id: 'global-bazaar', name: 'international offers by country', paths: ['/global-bazaar'], opensWith: 'full' },
  { id: 'historical-data', name: 'historical prices by grade', paths: ['/historical-data'], opensWith: 'full' },
  { id: 'graphs', name: 'polymer price graphs', paths: ['/graph'], opensWith: 'full' },
  { id: 'compare', name: 'comparisons and exports (CSV, Excel, images)', paths: ['/compare'], opensWith: 'full' },
  { id: 'future-trends', name: 'future trends', paths: ['/future-trends', '/future-trend'], opensWith: 'full' },
  { id: 'plant-news', name: 'plant news reports', paths: ['/plant-news'], opensWith: 'full' },
  { id: 'buy-sell', name: 'buy and sell leads', paths: ['/buy-sell'], opensWith: 'limited' },
  { id: 'vip-delegations', name: 'VIP delegation reports', paths: ['/vip-delegations'], opensWith: 'limited' },
  { id: 'services', name: 'event and press-release services', paths: ['/services'], opensWith: 'limited' },
];

const ACCESS_RANK: Readonly<Record<PlanAccess, number>> = { limited: 1, full: 2 };
const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

/** The path prefixes plans without data screens open: the access policy's limited set. */
export const LIMITED_SCREEN_PATHS: readonly string[] = SCREENS.filter((s) => s.opensWith === 'limited').flatMap((s) => s.paths);

export const findScreen = (id: string | null | undefined): Screen | undefined => (id ? SCREENS.find((s) => s.id === id) : undefined);

/** The screen a page path belongs to, if any. */
export const screenOfPath = (path: string): Screen | undefined => SCREENS.find((s) => s.paths.some((prefix) => under(path, prefix)));

export const opensScreen = (plan: Plan, screen: Screen): boolean => ACCESS_RANK[plan.access] >= ACCESS_RANK[screen.opensWith];

/** The screens a plan opens, in the table's order. */
export const screensOf = (plan: Plan): Screen[] => SCREENS.filter((s) => opensScreen(plan, s));

/** Whether the plan opens /compare and its exports. */
export const hasCompare = (plan: Plan): boolean => opensScreen(plan, findScreen('compare')!);

/** "Premium and Platinum", "Basic, Standard, Premium and Platinum": the plans that open a screen. */
export function plansOpening(screen: Screen): Plan[] {
  return plans.filter((p) => opensScreen(p, screen));
}

/** The text with its first letter in capitals (a name that starts a sentence). */
export const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Names joined as a sentence says them: "A", "A and B", "A, B and C". */
export function andList(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

/**
 * The paywall notice of a screen: "Feedstock charts (…) are in Premium and Platinum." Built from
 * the table only, so a `?locked=` key can never put text of its own on a page.
 */
export const lockedNotice = (screen: Screen): string => `${capitalize(screen.name)} are in ${andList(plansOpening(screen).map((p) => p.name))}.`;
