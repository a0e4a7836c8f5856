/**
 * What the desk sends to publish a forecast (the admin form and the JSON endpoint of the next
 * phase read it with these schemas), the checks that need the series' last price, and the
 * record a valid input becomes. The server supplies what the desk does not choose: the base
 * (the series' last price at publication), the flat band, the author and the instant.
 */
import { z } from 'astro/zod';
import { toDisplayDate } from '../dates.ts';
import { formatCount, formatNumber } from '../numbers.ts';
import type { PricePoint } from '../priceTypes.ts';
import { findSeries } from '../seriesCatalog.ts';
import { directions, flatEdges, horizonEnd, horizons, rangeAllows, type Forecast, type ForecastMaker } from './model.ts';

export const MAX_RATIONALE = 4_000;
/** A range further than this from the last price is a typo (11,500 for 1,150), not a view. */
export const MAX_RANGE_FACTOR = 2;
export const MAX_FORECAST_ID = 120;

/** A price as a number, or as the form's text (Indian digit grouping allowed: "1,150.50"). */
const price = (label: string) =>
  z
    .union([z.number(), z.string()], { error: `${label} must be a number.` })
    .transform((value, ctx) => {
      const number = typeof value === 'number' ? value : /^\s*\d[\d,]*(\.\d+)?\s*$/.test(value) ? Number(value.replaceAll(',', '')) : Number.NaN;
      if (!Number.isFinite(number) || number <= 0) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a price above zero.` });
        return z.NEVER;
      }
      return number;
    });

export const DeskForecastInput = z
  .object({
    seriesId: z
      .string({ error: 'Choose the series.' })
      .trim()
      .refine((id) => findSeries(id) !== undefined, 'There is no such series.'),
    horizon: z.enum(horizons, { error: 'The horizon must be 1w, 1m or 3m.' }),
    direction: z.enum(directions, { error: 'The direction must be up, flat or down.' }),
    low: price('The low end of the range'),
    high: price('The high end of the range'),
    rationale: z
      .string({ error: 'The rationale must be text.' })
      .trim()
      .min(1, 'The rationale is required.')
      .max(MAX_RATIONALE, `The rationale is too long (${formatCount(MAX_RATIONALE)} characters at most).`),
    supersedes: z
      .string({ error: 'supersedes must be the id of the forecast this one corrects.' })
      .trim()
      .min(1, 'supersedes must be the id of the forecast this one corrects.')
      .max(MAX_FORECAST_ID, 'supersedes is not a forecast id.')
      .nullable()
      .optional()
      .transform((value) => value ?? null),
  })
  .strict()
  .refine((input) => input.low < input.high, { message: 'The high end of the range must be above the low end.', path: ['high'] });

export type DeskForecastInput = z.output<typeof DeskForecastInput>;

/** A refusal of an input that parsed, naming the field (the endpoint answers 400 or 409 with it). */
export interface InputRefusal {
  readonly code: 'invalid_input' | 'no_price' | 'not_correctable';
  readonly field: string;
  readonly message: string;
}

const shown = (value: number): string => formatNumber(value);

/** Checks the input against the series' last price and its flat band: null when it stands. */
export function checkAgainstBase(input: DeskForecastInput, base: PricePoint | null, bandPct: number): InputRefusal | null {
  if (!base) return { code: 'no_price', field: 'seriesId', message: 'This series has no price yet to forecast from.' };
  const unit = findSeries(input.seriesId)?.unit ?? '';
  if (input.low < base.value / MAX_RANGE_FACTOR || input.high > base.value * MAX_RANGE_FACTOR) {
    return {
      code: 'invalid_input',
      field: input.low < base.value / MAX_RANGE_FACTOR ? 'low' : 'high',
      message: `The range must lie between half and twice the last price (${shown(base.value)} ${unit} on ${toDisplayDate(base.date)}).`,
    };
  }
  if (!rangeAllows(input.direction, input.low, input.high, base.value, bandPct)) {
    const { lower, upper } = flatEdges(base.value, bandPct);
    const band = `flat is ${shown(lower)}–${shown(upper)} (±${bandPct}% of ${shown(base.value)})`;
    const message =
      input.direction === 'up'
        ? `An up call needs a high above the flat band: ${band}.`
        : input.direction === 'down'
          ? `A down call needs a low below the flat band: ${band}.`
          : `A flat call needs a range that meets the flat band: ${band}.`;
    return { code: 'invalid_input', field: 'direction', message };
  }
  return null;
}

/**
 * Whether `target` may be corrected by a new forecast on `seriesId` and `horizon` published on
 * `today`: a desk forecast of the same series and horizon whose horizon ends after today (a call
 * at or past its end is being scored; it stays as it was). null when it may.
 */
export function checkSupersedes(target: Forecast | null, input: Pick<DeskForecastInput, 'seriesId' | 'horizon'>, today: string): InputRefusal | null {
  const refuse = (message: string): InputRefusal => ({ code: 'not_correctable', field: 'supersedes', message });
  if (!target) return refuse('There is no such forecast to correct.');
  if (target.by.kind !== 'desk') return refuse('The baseline is not the desk’s to correct.');
  if (target.seriesId !== input.seriesId || target.horizon !== input.horizon) return refuse('A correction is for the same series and horizon as the forecast it corrects.');
  if (target.endDate <= today) return refuse('That forecast’s horizon has ended: it is scored as published.');
  return null;
}

/** The record a checked input becomes. */
export function deskForecastOf(
  input: DeskForecastInput,
  made: { readonly id: string; readonly base: PricePoint; readonly flatBandPct: number; readonly by: Extract<ForecastMaker, { kind: 'desk' }>; readonly now: Date },
): Forecast {
  return {
    id: made.id,
    seriesId: input.seriesId,
    horizon: input.horizon,
    direction: input.direction,
    low: input.low,
    high: input.high,
    rationale: input.rationale,
    by: made.by,
    publishedAt: made.now.toISOString(),
    baseDate: made.base.date,
    baseValue: made.base.value,
    endDate: horizonEnd(made.base.date, input.horizon),
    flatBandPct: made.flatBandPct,
    supersedes: input.supersedes,
  };
}
