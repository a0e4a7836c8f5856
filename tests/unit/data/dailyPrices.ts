/**
 * One Premium subscriber's daily update, as the snapshot tests (tests/unit/dailyUpdate.messages.test.ts)
 * and the e-mail rendering in Chromium (tests/integration/daily-mail-render.test.ts) read it:
 * feedstocks and the rupee, the Mumbai sheet, a Delhi price with no earlier sheet, a CIF price,
 * and one price not published yet. The day is Tuesday 24 November 2026.
 */
import type { DailyPrice } from '../../../src/lib/delivery/dailyUpdate.ts';
import { findInstrument } from '../../../src/lib/delivery/instruments.ts';

export const SITE = 'https://polyindex.in';
export const DAY = '2026-11-24';
export const MORE = `${SITE}/indian-bazaar/citywise?city=mumbai`;

export const price = (id: string, latest: readonly [string, number] | null, previous: readonly [string, number] | null, linked = true): DailyPrice => {
  const instrument = findInstrument(id)!;
  return {
    instrument,
    latest: latest && { date: latest[0], value: latest[1] },
    previous: previous && { date: previous[0], value: previous[1] },
    screen: linked ? `${SITE}${instrument.path}` : null,
  };
};

export const PRICES: DailyPrice[] = [
  price('city.mumbai.ppRaffia', ['2026-11-20', 104.5], ['2026-11-13', 104]),
  price('feedstock.crude.brent', ['2026-11-23', 73.4], ['2026-11-20', 72.85]),
  price('feedstock.naphtha.japan', ['2026-11-23', 612], ['2026-11-20', 614.5]),
  price('city.mumbai.hdpeFilm', ['2026-11-20', 112], ['2026-11-13', 112]),
  price('historical.ppRaffia.cif-ns', ['2026-11-21', 1010], ['2026-11-14', 1025]),
  price('fx.usdinr', ['2026-11-23', 84.3215], ['2026-11-20', 84.274]),
  price('city.delhi.lldpeFilm', ['2026-11-20', 123456.5], null),
  price('feedstock.va.china', null, null),
];
