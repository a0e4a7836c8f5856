/**
 * The deterministic demo-data generator (docs/data.md). Pure: the same seed and the same "today"
 * give the same numbers, byte for byte. Prices are linked the way the market links them:
 *
 *   Brent (mean-reverting walk) → naphtha → ethylene / propylene / aromatics → EDC → VCM
 *   propylene → CIF Nhava Sheva PP; ethylene → CIF PE grades; VCM → CIF PVC
 *   (with a lag of FEEDSTOCK_LAG_DAYS: a polymer follows its monomer of two weeks before)
 *   CIF × customs rate in force + duties + port charges, less the producers' discount, + GST
 *     → Mumbai ex-works ₹/kg → the city-wise sheets; CIF Nhava Sheva → global-bazaar India
 *
 * Frequencies: feedstocks and USD/INR every weekday; CIF NS weekly (Fridays); Mumbai ex-works
 * weekly (Mondays, the list-price revision day); international offers twice a month;
 * city-wise sheets on the last two years of Mumbai revision days; customs rates when CBIC
 * notifies them (twice a month). See docs/data.md, "Demo data".
 */
import { cities, feedstocks, globalBazaarCountries, polymers, type Polymer } from './catalog.ts';
import { addDays, daysBetween, type IsoDate } from './dates.ts';
import type { CustomsRateNotification } from './customsRates.ts';
import { DEFAULT_RATES, landedCost } from './landedCost.ts';
import { roundTo } from './numbers.ts';
import type { CityPriceRow, OfferData, OfferRecord, PricePoint } from './priceTypes.ts';
import { allSeries, feedstockSeriesId, FX_SERIES_ID, historicalSeriesId, type SeriesDef } from './seriesCatalog.ts';

/**
 * What the generator makes. Each price is a record (not a bare number), so a price can carry
 * more about itself (a low and a high where the market quotes ranges) without a new shape.
 */
export interface DemoData {
  readonly series: readonly SeriesDef[];
  readonly points: ReadonlyMap<string, readonly PricePoint[]>;
  readonly citySheets: readonly CityPriceRow[];
  readonly offers: readonly OfferRecord[];
  /** CBIC's customs exchange-rate notifications, oldest first. */
  readonly customsRates: readonly CustomsRateNotification[];
}

export const DEFAULT_SEED = 20_140_101;
export const GST = 0.18;

// ---- randomness -----------------------------------------------------------------------

/** mulberry32: a small, fast, well-mixed 32-bit PRNG. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a of a string: a stable per-name seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function normal(random: () => number): number {
  // Box–Muller; 1 - u keeps log away from 0.
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** An Ornstein–Uhlenbeck spread around 0, reflected inside ±limit. */
function spreadWalk(random: () => number, sigma: number, limit: number, reversion = 0.03): { step(): number } {
  let value = 0;
  return {
    step() {
      let next = value - reversion * value + sigma * normal(random);
      if (next > limit) next = 2 * limit - next;
      if (next < -limit) next = -2 * limit - next;
      value = Math.max(-limit, Math.min(limit, next));
      return value;
    },
  };
}

const clamp = (value: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, value));
// Steps of at most two decimals (0.01, 0.5, 5): the product is written back on its decimal digits, so no float noise is stored.
const round = (value: number, step: number): number => roundTo(Math.round(value / step) * step, 2);
const round2 = (value: number): number => roundTo(value, 2);

const weekday = (date: IsoDate): number => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
};

/** First day of the demo history: 1 January, twelve years before today's year. */
export const historyStart = (today: IsoDate): IsoDate => `${Number(today.slice(0, 4)) - 12}-01-01`;

// ---- the market model -----------------------------------------------------------------

/** Per-grade premium over its polymer's base CIF price (US$/t), by grade position. */
const GRADE_PREMIUMS: Record<Polymer['slug'], readonly number[]> = {
  PP: [0, 20, 10, 70, 90],
  HDPE: [0, -10, 15, 20],
  LLDPE: [0, 80, 20, 40],
  LDPE: [0, 40],
  PVC: [0, 30],
};

interface Day {
  readonly date: IsoDate;
  readonly feedstock: ReadonlyMap<string, number>;
  readonly usdinr: number;
  /** CIF Nhava Sheva US$/t by grade key. */
  readonly cif: ReadonlyMap<string, number>;
}

/** How many weekdays a polymer's price trails its monomer's (a cargo's buying-to-arrival time). */
export const FEEDSTOCK_LAG_DAYS = 10;

/** Walks the market one weekday at a time from `start` to `today` (inclusive). */
function simulate(seed: number, start: IsoDate, today: IsoDate): Day[] {
  const random = createRandom(seed);
  const spread = (sigma: number, limit: number, reversion?: number) => spreadWalk(random, sigma, limit, reversion);
  let brentLog = Math.log(78);
  const s = {
    naphtha: spread(5, 28),
    naphthaChina: spread(1.5, 12),
    propylene: spread(7, 75),
    propyleneChina: spread(2, 15),
    ethylene: spread(9, 110),
    ethyleneSea: spread(2, 18),
    styrene: spread(10, 140),
    styreneKorea: spread(2, 15),
    edc: spread(5, 70),
    edcCfr: spread(1.5, 8),
    vcm: spread(6, 80),
    pta: spread(5, 70),
    meg: spread(5, 70),
    acn: spread(12, 180),
    butadiene: spread(16, 260),
    va: spread(35, 550),
    fx: spread(0.07, 1.1, 0.02),
  };
  const polymerSpread = new Map(polymers.map((p) => [p.slug, spread(6, 60)]));
  const gradeSpread = new Map(polymers.flatMap((p) => p.grades.map((g) => [g.key, spread(1.5, 12, 0.05)] as const)));

  const total = Math.max(1, daysBetween(start, today));
  // Polymer prices follow their monomers with a lag: a cargo is bought on the monomer's price of
  // about two weeks before (FEEDSTOCK_LAG_DAYS weekdays).
  const monomers: { propylene: number; ethylene: number; vcm: number }[] = [];
  const days: Day[] = [];
  for (let date = start; date <= today; date = addDays(date, 1)) {
    const dow = weekday(date);
    if (dow === 0 || dow === 6) continue;
    // Brent: log mean reversion to ~US$80 with reflection inside 61–109.
    brentLog += 0.006 * (Math.log(80) - brentLog) + 0.017 * normal(random);
    if (brentLog > Math.log(109)) brentLog = 2 * Math.log(109) - brentLog;
    if (brentLog < Math.log(61)) brentLog = 2 * Math.log(61) - brentLog;
    const brent = Math.exp(brentLog);
    const naphtha = clamp(520 + (brent - 60) * 3.6 + s.naphtha.step(), 505, 715);
    const naphthaChina = naphtha - 6 + s.naphthaChina.step();
    const propylene = naphtha * 1.45 + 20 + s.propylene.step();
    const propyleneChina = propylene + 15 + s.propyleneChina.step();
    const ethylene = naphtha * 1.55 + s.ethylene.step();
    const ethyleneSea = ethylene + 25 + s.ethyleneSea.step();
    const styrene = naphtha * 1.6 + 150 + s.styrene.step();
    const styreneKorea = styrene + 20 + s.styreneKorea.step();
    const edc = ethylene * 0.25 + 120 + s.edc.step();
    const edcCfr = s.edcCfr.step();
    const vcm = ethylene * 0.45 + edc * 0.6 + 50 + s.vcm.step();
    const pta = naphtha * 1.05 + 120 + s.pta.step();
    const meg = ethylene * 0.5 + 80 + s.meg.step();
    const acn = propylene * 1.35 + 200 + s.acn.step();
    const butadiene = naphtha * 1.6 + s.butadiene.step();
    const va = (ethylene * 0.45 + 420) * 7.1 + s.va.step();
    const progress = daysBetween(start, date) / total;
    const usdinr = clamp(82.6 + 7.2 * progress + s.fx.step(), 82, 92);

    const feedstock = new Map<string, number>();
    const put = (slug: string, call: string, value: number) =>
      feedstock.set(feedstockSeriesId(slug, call), slug === 'Crude' ? round2(value) : round(value, 0.5));
    // Values per feedstock slug and market call, in catalog order.
    const values: Record<string, readonly number[]> = {
      Crude: [brent],
      Naphtha: [naphtha, naphthaChina],
      Propylene: [propylene, propyleneChina],
      Ethylene: [ethylene, ethyleneSea],
      Styrene: [styrene, styreneKorea],
      EDC: [edc, edc + 12 + edcCfr, edc - 8 + edcCfr],
      VCM: [vcm],
      PTA: [pta],
      MEG: [meg],
      ACN: [acn],
      Butadiene: [butadiene],
      VA: [va],
    };
    for (const f of feedstocks) {
      const list = values[f.slug];
      f.subMarkets.forEach((m, i) => {
        const v = list?.[i] ?? list?.[0];
        if (v !== undefined) put(f.slug, m.call, v);
      });
    }

    monomers.push({ propylene, ethylene, vcm });
    const lagged = monomers[Math.max(0, monomers.length - 1 - FEEDSTOCK_LAG_DAYS)]!;
    const base: Record<Polymer['slug'], number> = {
      PP: lagged.propylene + 210,
      HDPE: lagged.ethylene * 0.95 + 250,
      LLDPE: lagged.ethylene * 0.95 + 225,
      LDPE: lagged.ethylene + 370,
      PVC: lagged.vcm * 1.05 + 120,
    };
    const cif = new Map<string, number>();
    for (const p of polymers) {
      const pBase = base[p.slug] + polymerSpread.get(p.slug)!.step();
      p.grades.forEach((g, i) => {
        cif.set(g.key, round(pBase + (GRADE_PREMIUMS[p.slug][i] ?? 0) + gradeSpread.get(g.key)!.step(), 5));
      });
    }
    days.push({ date, feedstock, usdinr: round(usdinr, 0.01), cif });
  }
  return days;
}

/** The producers' discount to import parity: domestic list prices sit just under what an import lands at. */
export const PRODUCER_DISCOUNT = 0.02;

/**
 * Mumbai ex-works (₹/kg incl. 18% GST) at import parity: what a cargo at `cifUsdPerTonne` lands
 * at in Mumbai at the customs rate in force (duties and port charges of src/lib/landedCost.ts,
 * IGST left out as the creditable tax it is), less the producers' discount, plus GST; 50 paise.
 */
export function mumbaiExWorks(cifUsdPerTonne: number, customsRate: number): number {
  const landed = landedCost({ cifUsdPerTonne, exchangeRate: customsRate, ...DEFAULT_RATES });
  return round(landed.netOfIgstPerKg * (1 - PRODUCER_DISCOUNT) * (1 + GST), 0.5);
}

/** City-wise sheets go back this many weekly revision days (two years: the city-wise history). */
export const CITY_SHEET_WEEKS = 104;

/** The distributors' margin: ex-godown Mumbai over the producers' ex-works Mumbai (₹/kg, incl. GST). */
export const DISTRIBUTOR_MARGIN = 1;

/**
 * What a city's ex-godown sheet adds to the Mumbai ex-works price (₹/kg): the distributors'
 * margin, and for every city but Mumbai the freight from the producers' depots (−0.5 to +3,
 * in 50 paise; a city near a plant can be under Mumbai). Fixed per city, so the sheets of two
 * cities and the Mumbai series never disagree about a move.
 */
export const cityDifferential = (citySlug: string): number =>
  citySlug === 'mumbai' ? DISTRIBUTOR_MARGIN : DISTRIBUTOR_MARGIN + round(-0.5 + (hashString(citySlug) % 8) / 2, 0.5);

/** The sellers' asking premium of the global-bazaar India offers over the CIF Nhava Sheva assessment (US$/t). */
export const INDIA_OFFER_PREMIUM = 15;

/** The customs rates CBIC notifies stand this far (₹/US$) either side of the reference rate of the notification day. */
export const CUSTOMS_RATE_MARGIN = 0.85;

/** The latest of `items` dated on or before `date` (items ascending by `dateOf`), else null. */
export function latestOnOrBefore<T>(items: readonly T[], date: IsoDate, dateOf: (item: T) => IsoDate): T | null {
  let lo = 0;
  let hi = items.length - 1;
  let found: T | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const item = items[mid]!;
    if (dateOf(item) <= date) {
      found = item;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * The customs notifications of the history: CBIC notifies the rates on the first and third
 * Thursday of a month, in force from the next day, at the reference rate of the day rounded to
 * 5 paise and set CUSTOMS_RATE_MARGIN above (imports) and below (exports). Numbered in the
 * year's "Customs (N.T.)" series, which other non-tariff notifications share (hence the gaps).
 */
function customsNotifications(days: readonly Day[]): CustomsRateNotification[] {
  const notifications: CustomsRateNotification[] = [];
  let year = '';
  let count = 0;
  for (const day of days) {
    const dayOfMonth = Number(day.date.slice(8, 10));
    if (weekday(day.date) !== 4 || !(dayOfMonth <= 7 || (dayOfMonth >= 15 && dayOfMonth <= 21))) continue;
    if (day.date.slice(0, 4) !== year) [year, count] = [day.date.slice(0, 4), 0];
    count += 1;
    notifications.push({
      number: `${count * 3 + 1}/${year}-Customs (N.T.)`,
      notifiedOn: day.date,
      effectiveFrom: addDays(day.date, 1),
      importRate: round(day.usdinr + CUSTOMS_RATE_MARGIN, 0.05),
      exportRate: round(day.usdinr - CUSTOMS_RATE_MARGIN, 0.05),
    });
  }
  return notifications;
}

/** The customs rate in force on `date`: the newest notification effective by then (the first before any). */
export const customsRateOn = (notifications: readonly CustomsRateNotification[], date: IsoDate): CustomsRateNotification | null =>
  latestOnOrBefore(notifications, date, (n) => n.effectiveFrom) ?? notifications[0] ?? null;

/**
 * Generates every catalog series, city sheet, offer and customs notification from
 * `historyStart(today)` to `today`, from one walk of the market:
 *
 *   CIF Nhava Sheva (Fridays) = the day's import price
 *   Mumbai ex-works (Mondays) = import parity of the latest CIF Nhava Sheva at the customs rate in force
 *   city-wise (Mondays) = Mumbai ex-works + the city's differential (cityDifferential)
 *   global-bazaar India = the latest CIF Nhava Sheva + INDIA_OFFER_PREMIUM; other countries around India
 *
 * `demoRelations` (src/lib/demoRelations.ts) states the same links for the consistency check.
 */
export function generateDemoData(options: { seed?: number | undefined; today: IsoDate }): DemoData {
  const seed = options.seed ?? DEFAULT_SEED;
  const start = historyStart(options.today);
  const days = simulate(seed, start, options.today);
  const points = new Map<string, PricePoint[]>(allSeries.map((s) => [s.id, []]));
  const push = (id: string, date: IsoDate, value: number) => points.get(id)?.push({ date, value });
  const customsRates = customsNotifications(days);

  const cifNsOn = (gradeKey: string, date: IsoDate, day: Day): number => {
    const published = points.get(historicalSeriesId(gradeKey, 'CIF NS'))!;
    return latestOnOrBefore(published, date, (p) => p.date)?.value ?? day.cif.get(gradeKey)!;
  };
  const mumbaiOn = new Map<IsoDate, Map<string, number>>();
  for (const day of days) {
    for (const [id, value] of day.feedstock) push(id, day.date, value);
    push(FX_SERIES_ID, day.date, day.usdinr);
    const dow = weekday(day.date);
    const customs = customsRateOn(customsRates, day.date);
    const mumbai = new Map<string, number>();
    for (const p of polymers) {
      for (const g of p.grades) {
        if (dow === 5) push(historicalSeriesId(g.key, 'CIF NS'), day.date, day.cif.get(g.key)!);
        if (dow === 1) {
          const price = mumbaiExWorks(cifNsOn(g.key, day.date, day), customs?.importRate ?? day.usdinr);
          mumbai.set(g.key, price);
          push(historicalSeriesId(g.key, 'Mumbai'), day.date, price);
        }
      }
    }
    if (dow === 1) mumbaiOn.set(day.date, mumbai);
  }

  // City-wise sheets on the last two years of Mumbai revision days.
  const mondays = days.filter((d) => weekday(d.date) === 1).slice(-CITY_SHEET_WEEKS);
  const citySheets: CityPriceRow[] = [];
  for (const day of mondays) {
    const mumbai = mumbaiOn.get(day.date)!;
    for (const city of cities) {
      for (const p of polymers) {
        for (const g of p.grades) {
          citySheets.push({ city: city.slug, polymerType: p.slug, grade: g.key, price: round(mumbai.get(g.key)! + cityDifferential(city.slug), 0.5), date: day.date });
        }
      }
    }
  }

  // International offers twice a month (first weekday on or after the 1st and the 15th).
  const offerDays = days.filter((d, i) => {
    const previous = days[i - 1];
    if (!previous || previous.date.slice(0, 7) !== d.date.slice(0, 7)) return true;
    return Number(d.date.slice(8, 10)) >= 15 && Number(previous.date.slice(8, 10)) < 15;
  });
  const offers: OfferRecord[] = [];
  for (const country of globalBazaarCountries) {
    const differential = country.slug === 'India' ? 0 : -90 + (hashString(country.slug) % 211);
    for (const day of offerDays) {
      const countryRandom = createRandom(seed ^ hashString(`${country.slug}:${day.date}`));
      const data: OfferData = {};
      for (const p of polymers) {
        const group: Record<string, number> = {};
        for (const g of p.grades) {
          const india = cifNsOn(g.key, day.date, day) + INDIA_OFFER_PREMIUM;
          group[g.name] = country.slug === 'India' ? india : round(india + differential + (countryRandom() - 0.5) * 30, 5);
        }
        data[p.slug] = group;
      }
      offers.push({ country: country.slug, date: day.date, data });
    }
  }

  return { series: allSeries, points, citySheets, offers, customsRates };
}

/** A producer's list price from its effective date (₹/kg, ex-works, excl. GST: the basic price producers publish). */
export interface ListPriceRevision {
  readonly effectiveFrom: IsoDate;
  readonly price: number;
}

/**
 * A producer's list-price path for a grade, from the same model: each Monday the producers set
 * their basic price from the import parity the Mumbai ex-works assessment follows (that price
 * without GST) plus the producer's own premium (₹/kg, may be negative), in 50 paise; a revision
 * is a Monday whose price differs from the one before. The city-wise sheets of that Monday
 * follow the revision. For the producer prices kind to seed from.
 */
export function producerListPricePath(data: DemoData, gradeKey: string, premium: number, since?: IsoDate): ListPriceRevision[] {
  const revisions: ListPriceRevision[] = [];
  for (const point of data.points.get(historicalSeriesId(gradeKey, 'Mumbai')) ?? []) {
    if (since && point.date < since) continue;
    const price = round(point.value / (1 + GST) + premium, 0.5);
    if (revisions.at(-1)?.price !== price) revisions.push({ effectiveFrom: point.date, price });
  }
  return revisions;
}
