/**
 * Units of a comparison and the conversions between them (pure). A price is converted per
 * date with the US$/INR reference rate (`fx.usdinr`, ₹ per US$) of that date, and crude from
 * barrels to tonnes with a factor per crude grade. Only currency and mass change: taxes,
 * duties and freight stay as quoted (Mumbai ex-works includes 18% GST; CIF excludes duty).
 * docs/data.md ("Comparing series") writes the formulas out with a worked example.
 */
import { CONVERTED_DECIMALS, formatFixed, roundTo } from '../numbers.ts';
import type { PricePoint } from '../priceTypes.ts';
import { FX_SERIES_ID, type SeriesDef } from '../seriesCatalog.ts';

/** The unit choices of /compare and `GET /api/series?unit=`. */
export const compareUnits = ['native', 'inr_kg', 'usd_t'] as const;
export type CompareUnit = (typeof compareUnits)[number];

export const isCompareUnit = (value: string): value is CompareUnit => (compareUnits as readonly string[]).includes(value);

/** What a trader reads for each choice (the converted ones are units as src/lib/units.ts spells them). */
export const compareUnitLabels: Readonly<Record<CompareUnit, string>> = {
  native: 'As quoted',
  inr_kg: '₹/kg',
  usd_t: 'US$/t',
};

/** US gallons are not involved: one oil barrel is 0.158987294928 m³ exactly (42 US gal). */
export const BARREL_M3 = 0.158987294928;

/** Barrels in one tonne of a crude of specific gravity `sg` (density relative to water at 15 °C). */
export const barrelsPerTonne = (sg: number): number => 1 / (sg * BARREL_M3);

/** Specific gravity from API gravity: SG = 141.5 ÷ (API + 131.5). */
export const specificGravityOfApi = (api: number): number => 141.5 / (api + 131.5);

export interface CrudeFactor {
  /** Barrels per tonne, rounded to 3 decimals as published in docs/data.md. */
  readonly barrelsPerTonne: number;
  /** Where the factor comes from, in words. */
  readonly basis: string;
}

const crude = (api: number, name: string): CrudeFactor => ({
  barrelsPerTonne: roundTo(barrelsPerTonne(specificGravityOfApi(api)), 3),
  basis: `${name} at API gravity ${api}° (SG ${formatFixed(specificGravityOfApi(api), 4)})`,
});

/**
 * Barrels per tonne of each crude series, by series id. Every US$/bbl series must be listed
 * here (a unit test checks the catalog against this table).
 */
export const crudeFactors: Readonly<Record<string, CrudeFactor>> = {
  'feedstock.crude.brent': crude(38.3, 'Brent blend'),
};

/** How one series becomes the chosen unit: value × multiplier, × or ÷ the day's USD/INR, ÷ divisor. */
export interface Conversion {
  /** The unit the converted values are in (the series' own unit when nothing changes). */
  readonly unit: string;
  readonly multiplier: number;
  readonly fx: 'none' | 'multiply' | 'divide';
  readonly divisor: number;
  /** The formula in words, for the answer and the exports. */
  readonly formula: string;
}

export type ConversionResult =
  | { readonly ok: true; readonly conversion: Conversion }
  /** `reason`: why, in a few words ("PolyIndex keeps no RMB exchange rate"); `message`: the whole sentence, naming the series. */
  | { readonly ok: false; readonly message: string; readonly reason: string };

const identity = (unit: string): Conversion => ({ unit, multiplier: 1, fx: 'none', divisor: 1, formula: 'as quoted' });

/** The conversion of `series` to `unit`, or why there is none. */
export function conversionFor(series: SeriesDef, unit: CompareUnit): ConversionResult {
  if (unit === 'native') return { ok: true, conversion: identity(series.unit) };
  const target = compareUnitLabels[unit];
  const none = (why: string): ConversionResult => ({ ok: false, message: `${series.label} (${series.unit}) cannot be shown in ${target}: ${why}`, reason: why.replace(/\.$/, '') });
  if (series.id === FX_SERIES_ID || series.unit === '₹/US$') return none('it is the exchange rate itself.');
  if (series.unit === 'RMB/t') return none('PolyIndex keeps no RMB exchange rate.');

  if (series.unit === 'US$/t') {
    return {
      ok: true,
      conversion:
        unit === 'usd_t'
          ? { ...identity(target), formula: 'as quoted (US$ per tonne)' }
          : { unit: target, multiplier: 1, fx: 'multiply', divisor: 1000, formula: '₹/kg = US$/t × ₹/US$ of the day ÷ 1000' },
    };
  }
  if (series.unit === 'US$/bbl') {
    const factor = crudeFactors[series.id];
    if (!factor) return none('no barrels-per-tonne factor is recorded for it.');
    const bbl = factor.barrelsPerTonne;
    return {
      ok: true,
      conversion:
        unit === 'usd_t'
          ? { unit: target, multiplier: bbl, fx: 'none', divisor: 1, formula: `US$/t = US$/bbl × ${bbl} bbl/t (${factor.basis})` }
          : { unit: target, multiplier: bbl, fx: 'multiply', divisor: 1000, formula: `₹/kg = US$/bbl × ${bbl} bbl/t × ₹/US$ of the day ÷ 1000 (${factor.basis})` },
    };
  }
  if (series.unit === '₹/kg') {
    return {
      ok: true,
      conversion:
        unit === 'inr_kg'
          ? { ...identity(target), formula: 'as quoted (₹ per kg)' }
          : { unit: target, multiplier: 1000, fx: 'divide', divisor: 1, formula: 'US$/t = ₹/kg × 1000 ÷ ₹/US$ of the day' },
    };
  }
  return none('its unit has no conversion.');
}

/** Converted values keep 4 decimals: enough for ₹/kg and US$/t, and stable in exports (rounded by src/lib/numbers.ts). */
export const round4 = (value: number): number => roundTo(value, CONVERTED_DECIMALS);

/**
 * Converts ascending points with the ₹/US$ rate of each date: the rate of that day, or else
 * the latest one before it (rates are published on weekdays; weekly series fall on other
 * days). Points before the first known rate are left out. `fx` must be ascending.
 */
export function convertPoints(points: readonly PricePoint[], conversion: Conversion, fx: readonly PricePoint[]): PricePoint[] {
  const { multiplier, divisor } = conversion;
  if (conversion.fx === 'none') {
    if (multiplier === 1 && divisor === 1) return [...points];
    return points.map((p) => withRange({ date: p.date, value: round4((p.value * multiplier) / divisor) }, p, (v) => round4((v * multiplier) / divisor)));
  }
  const out: PricePoint[] = [];
  let i = -1;
  for (const p of points) {
    while (i + 1 < fx.length && fx[i + 1]!.date <= p.date) i++;
    const rate = fx[i]?.value;
    if (rate === undefined || !(rate > 0)) continue;
    const convert = (v: number) => round4(((conversion.fx === 'multiply' ? v * multiplier * rate : (v * multiplier) / rate)) / divisor);
    out.push(withRange({ date: p.date, value: convert(p.value) }, p, convert));
  }
  return out;
}

/** A range's ends converted as its value is (the conversions are linear), so a band follows its line. */
const withRange = (point: PricePoint, from: PricePoint, convert: (value: number) => number): PricePoint =>
  from.low !== undefined && from.high !== undefined ? { ...point, low: convert(from.low), high: convert(from.high) } : point;

/** How many days before a range the exchange-rate read starts, so its first date has a rate. */
export const FX_LOOKBACK_DAYS = 14;

