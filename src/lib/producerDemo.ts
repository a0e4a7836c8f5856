/**
 * The demo's producer list prices (issue 20), pure and deterministic: a year of each list line's
 * prices and revisions, generated from a market level per grade and day. The level is a
 * parameter (`DemoMarket`): today it is the demo data's Mumbai ex-works series (src/lib/demoData.ts)
 * without its GST, so the lists move with the demo's city and historical prices; the one coherent
 * demo market model drives it by passing its own level. A producer revises a line only when the
 * level has moved by at least REVISION_STEP since its last list, on its own weekday, at most once a
 * fortnight, and lists in steps of ₹0.50 like the real circulars.
 */
import { createRandom, DEFAULT_SEED, GST, hashString } from './demoData.ts';
import { addDays, daysBetween, type IsoDate } from './dates.ts';
import { LIST_LINES, producerPriceRecord, type ListLine, type ProducerPriceRecord } from './producerPrices.ts';

/** The market's ₹/kg level of a grade on a day, GST excluded (null: no level known that day). */
export type DemoMarket = (grade: string, date: IsoDate) => number | null;

/** Who entered a demo list: the seed, not the desk (the daily update reports only the desk's entries). */
export const DEMO_ENTERED_BY = 'demo';

/** How far back the demo lists go. */
export const PRODUCER_DEMO_DAYS = 365;
/** The smallest move a producer passes on (₹/kg), and the fewest days between two revisions of a line. */
export const REVISION_STEP = 1.5;
export const REVISION_GAP_DAYS = 14;

/** Each producer's premium or discount to the market level (₹/kg), and the weekday it revises on (0 Sunday). */
const PRODUCER_TERMS: Readonly<Record<string, { readonly premium: number; readonly weekday: number }>> = {
  reliance: { premium: 1.5, weekday: 1 },
  iocl: { premium: 0.5, weekday: 1 },
  gail: { premium: 0, weekday: 2 },
  haldia: { premium: -0.5, weekday: 2 },
  opal: { premium: -1, weekday: 3 },
  hmel: { premium: 0.5, weekday: 1 },
  bcpl: { premium: -1.5, weekday: 4 },
};

/** A depot price carries the freight to it; a plant price is the level. */
const placePremium = (line: ListLine): number => (line.location.terms === 'ex-depot' ? 1.5 : 0);

const toHalf = (value: number): number => Math.round(value * 2) / 2;

/**
 * The market level of the demo data: its weekly Mumbai ex-works series (incl. GST) without the
 * GST, carried forward between its dates.
 */
export function marketFromSeries(points: (grade: string) => readonly { readonly date: IsoDate; readonly value: number }[]): DemoMarket {
  const cache = new Map<string, readonly { date: IsoDate; value: number }[]>();
  return (grade, date) => {
    let list = cache.get(grade);
    if (!list) cache.set(grade, (list = points(grade)));
    let found: number | null = null;
    for (const p of list) {
      if (p.date > date) break;
      found = p.value / (1 + GST);
    }
    return found;
  };
}

/** A year of list prices up to `today`: each line's first list, then a revision whenever the market moved enough. */
export function generateProducerDemo(options: { readonly today: IsoDate; readonly market: DemoMarket; readonly seed?: number }): ProducerPriceRecord[] {
  const seed = options.seed ?? DEFAULT_SEED;
  const start = addDays(options.today, -PRODUCER_DEMO_DAYS);
  const entered = (date: IsoDate) => ({ at: new Date(`${date}T12:30:00.000Z`), by: DEMO_ENTERED_BY });
  const records: ProducerPriceRecord[] = [];
  for (const line of LIST_LINES) {
    const terms = PRODUCER_TERMS[line.producer.id] ?? { premium: 0, weekday: 1 };
    const random = createRandom(seed ^ hashString(line.id));
    // A line's own small offset (a grade a producer is long or short of), fixed for the year.
    const own = toHalf((random() - 0.5) * 2);
    let last: number | null = null;
    let lastDate: IsoDate | null = null;
    for (let day = 0; day <= daysBetween(start, options.today); day++) {
      const date = addDays(start, day);
      const isRevisionDay = new Date(`${date}T00:00:00Z`).getUTCDay() === terms.weekday;
      if (last !== null && (!isRevisionDay || daysBetween(lastDate!, date) < REVISION_GAP_DAYS)) continue;
      const level = options.market(line.grade, date);
      if (level === null) continue;
      const price = toHalf(level + terms.premium + placePremium(line) + own);
      if (last !== null && Math.abs(price - last) < REVISION_STEP) continue;
      records.push(producerPriceRecord(line, date, price, entered(date)));
      last = price;
      lastDate = date;
    }
  }
  return records;
}
