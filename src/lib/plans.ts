/**
 * The plan table: what each plan costs, how long it lasts and what it unlocks. Data, in one
 * place; the access policy and the payment endpoints read it, nothing else prices a plan.
 */

/** What a plan unlocks on the website: the limited set, or every data screen. */
export type PlanAccess = 'limited' | 'full';

export interface Plan {
  readonly id: 'Basic' | 'Standard' | 'Premium' | 'Platinum';
  readonly name: string;
  /** Price in paise (₹1 = 100 paise), GST included. */
  readonly pricePaise: number;
  readonly durationDays: number;
  readonly access: PlanAccess;
  readonly features: readonly string[];
  /** What the plan delivers by WhatsApp and e-mail (src/lib/delivery/rights.ts reads it). */
  readonly delivery: DeliveryRights;
}

/** Price delivery a plan includes: the daily update, threshold alerts, the WhatsApp price bot. */
export interface DeliveryRights {
  readonly dailyUpdate: boolean;
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

/**
 * Basic and Standard (no price screens) get the market's benchmark prices daily: the feedstocks
 * every polymer price follows, the rupee, and Mumbai's city-wise sheet (every grade). Premium
 * and up choose from every price (docs/delivery.md, "What a subscriber gets").
 */
const BENCHMARK_CHOICES: DailyChoices = {
  instruments: ['feedstock.crude.brent', 'feedstock.naphtha.japan', 'feedstock.propylene.korea', 'feedstock.ethylene.nea', 'fx.usdinr'],
  citySheets: ['mumbai'],
};
const LIMITED_DAILY = ['feedstock.crude.brent', 'feedstock.naphtha.japan', 'city.mumbai.ppRaffia', 'city.mumbai.hdpeFilm', 'fx.usdinr'];
const FULL_DAILY = [
  ...LIMITED_DAILY,
  'feedstock.propylene.korea',
  'feedstock.ethylene.nea',
  'historical.ppRaffia.cif-ns',
  'city.mumbai.lldpeFilm',
  'city.mumbai.pvcExtrusion',
];
/** Basic and Standard: the daily update only. */
const UPDATES_ONLY: DeliveryRights = { dailyUpdate: true, alerts: false, priceBot: false, dailyDefaults: LIMITED_DAILY, dailyChoices: BENCHMARK_CHOICES };
/** Premium and up: the daily update, alerts and the price bot. */
export const FULL_DELIVERY: DeliveryRights = { dailyUpdate: true, alerts: true, priceBot: true, dailyDefaults: FULL_DAILY, dailyChoices: 'all' };

export const plans: readonly Plan[] = [
  {
    id: 'Basic',
    name: 'Basic',
    pricePaise: 5_500_00,
    durationDays: 365,
    access: 'limited',
    features: ['Daily WhatsApp price updates', 'Buy / sell leads', 'Services and VIP delegation news'],
    delivery: UPDATES_ONLY,
  },
  {
    id: 'Standard',
    name: 'Standard',
    pricePaise: 10_000_00,
    durationDays: 365,
    access: 'limited',
    features: ['Everything in Basic', 'PolyIndex mobile app'],
    delivery: UPDATES_ONLY,
  },
  {
    id: 'Premium',
    name: 'Premium',
    pricePaise: 15_000_00,
    durationDays: 365,
    access: 'full',
    features: [
      'Everything in Standard',
      'All website data screens: feedstock, city-wise, international, historical',
      'Future trends and plant news',
      'WhatsApp chatbot',
      'Buy / sell desk',
    ],
    delivery: FULL_DELIVERY,
  },
  {
    id: 'Platinum',
    name: 'Platinum',
    pricePaise: 25_000_00,
    durationDays: 365,
    access: 'full',
    features: ['Everything in Premium', 'A seat on a VIP delegation'],
    delivery: FULL_DELIVERY,
  },
];

export type PlanId = Plan['id'];

/** Plan ids are matched case-insensitively: stored records say "Premium", forms may say "premium". */
export const findPlan = (id: string | undefined | null): Plan | undefined =>
  id ? plans.find((p) => p.id.toLowerCase() === id.toLowerCase()) : undefined;

/** The legacy `{amount}` body names a plan only when it is exactly one plan's price. */
export const findPlanByRupees = (rupees: number): Plan | undefined => plans.find((p) => p.pricePaise === rupees * 100);

/** An unknown plan on a subscribed record unlocks everything, as the legacy rule did for "other plans". */
export const planAccess = (id: string | undefined | null): PlanAccess => findPlan(id)?.access ?? 'full';

/** ₹5,500 style, Indian digit grouping. */
export const formatRupees = (paise: number): string =>
  `₹${(paise / 100).toLocaleString('en-IN', { maximumFractionDigits: paise % 100 === 0 ? 0 : 2 })}`;
