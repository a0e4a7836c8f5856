/**
 * The price bot's answer to "pp forecast" (src/lib/delivery/priceBot.ts), in English or Hindi:
 * the desk's open call of each horizon on the series the pages forecast for that price, and the
 * desk's record over the last twelve months against the statistical baseline, with the link of
 * the outlook page. Pure: the bot reads the forecasts and scores (src/server/delivery/bot.ts).
 */
import type { IsoDate } from '../dates.ts';
import { forecastSeriesIds } from '../forecasts/coverage.ts';
import { directionArrow, rangeText, sharePct } from '../forecasts/format.ts';
import { horizons, type Direction, type Forecast, type Horizon } from '../forecasts/model.ts';
import type { Scoreboard } from '../forecasts/scoreboard.ts';
import { shortDay } from './dateWords.ts';
import type { Instrument } from './instruments.ts';
import type { DeliveryLanguage } from './language.ts';

/**
 * The series the desk forecasts for these prices (the first of them it covers), or null: a
 * series itself, or for a city-wise price the city's historical series of that grade (the
 * Mumbai ex-works series of /indian-bazaar/pricePrediction).
 */
export function forecastSeriesOf(instruments: readonly Instrument[]): string | null {
  for (const i of instruments) {
    const id = i.source.kind === 'series' ? i.source.seriesId : historicalSeriesIdOf(i.source.grade, i.source.city);
    if (forecastSeriesIds.includes(id)) return id;
  }
  return null;
}

const historicalSeriesIdOf = (grade: string, city: string): string => `historical.${grade}.${city}`;

const HORIZON_WORDS: Readonly<Record<DeliveryLanguage, Readonly<Record<Horizon, string>>>> = {
  en: { '1w': '1 week', '1m': '1 month', '3m': '3 months' },
  hi: { '1w': '1 हफ्ता', '1m': '1 महीना', '3m': '3 महीने' },
};
const DIRECTION_WORDS: Readonly<Record<DeliveryLanguage, Readonly<Record<Direction, string>>>> = {
  en: { up: 'Up', flat: 'Flat', down: 'Down' },
  hi: { up: 'ऊपर', flat: 'स्थिर', down: 'नीचे' },
};

export interface ForecastAnswer {
  /** "PP Raffia · CIF Nhava Sheva". */
  readonly label: string;
  /** "US$/t". */
  readonly unit: string;
  /** The desk's open call of each horizon (null: none open). */
  readonly calls: Readonly<Record<Horizon, Forecast | null>>;
  /** Every horizon, the last twelve months. */
  readonly board: Scoreboard;
  readonly link: string;
  readonly today: IsoDate;
}

export function forecastAnswer(a: ForecastAnswer, language: DeliveryLanguage): string {
  const hi = language === 'hi';
  const open = horizons.filter((h) => a.calls[h] !== null);
  const heading = hi ? `*${a.label}*: डेस्क का अनुमान (${a.unit})` : `*${a.label}*: the desk's forecast (${a.unit})`;
  const lines = open.map((h) => {
    const f = a.calls[h]!;
    const to = shortDay(f.endDate, language, a.today);
    return hi
      ? `${HORIZON_WORDS.hi[h]} (${to} तक): ${directionArrow(f.direction)} ${DIRECTION_WORDS.hi[f.direction]} ${rangeText(f)}`
      : `${HORIZON_WORDS.en[h]} (to ${to}): ${directionArrow(f.direction)} ${DIRECTION_WORDS.en[f.direction]} ${rangeText(f)}`;
  });
  if (open.length === 0) lines.push(hi ? 'अभी कोई खुला अनुमान नहीं है।' : 'No open call right now.');
  const { desk, baseline } = a.board;
  const record =
    desk.calls === 0
      ? hi
        ? 'पिछले 12 महीनों में कोई अनुमान स्कोर नहीं हुआ।'
        : 'No call scored in the last 12 months.'
      : hi
        ? `पिछले 12 महीने (${desk.calls} अनुमान): रेंज में ${sharePct(desk.hitRate)}, दिशा सही ${sharePct(desk.directionAccuracy)} (सांख्यिकीय आधार: ${sharePct(baseline.hitRate)}, ${sharePct(baseline.directionAccuracy)})।`
        : `Last 12 months (${desk.calls} calls): inside the range ${sharePct(desk.hitRate)}, direction right ${sharePct(desk.directionAccuracy)} (statistical baseline: ${sharePct(baseline.hitRate)}, ${sharePct(baseline.directionAccuracy)}).`;
  return [heading, ...lines, record, a.link].join('\n');
}

export const noForecast = (language: DeliveryLanguage, label: string): string =>
  language === 'hi' ? `*${label}* पर डेस्क अनुमान नहीं देता। PP, PE, PVC जैसे उत्पाद पूछें, जैसे "pp forecast"।` : `The desk does not forecast *${label}*. Ask for a product it covers, e.g. "pp forecast".`;
