import { describe, expect, it } from 'vitest';
import { chartPanels, CHART_POINTS, decodeChartSeries, encodeChartSeries, lineColor } from '../../src/lib/compare/chart.ts';
import { buildComparison, comparisonCaption, fxReadStart, lineName, readStart, unconvertible, type Comparison } from '../../src/lib/compare/comparison.ts';
import { customRange, monthsBefore, presetRange } from '../../src/lib/compare/ranges.ts';
import { compareHref, compareSearch, readCompareState, resolveRange, seriesQuery } from '../../src/lib/compare/state.ts';
import { indexTo100, lineStats, movingAverage } from '../../src/lib/compare/transforms.ts';
import { barrelsPerTonne, conversionFor, convertPoints, crudeFactors, specificGravityOfApi, type CompareUnit } from '../../src/lib/compare/units.ts';
import type { PricePoint } from '../../src/lib/priceTypes.ts';
import { allSeries, findSeries, FX_SERIES_ID } from '../../src/lib/seriesCatalog.ts';

const series = (id: string) => findSeries(id)!;
const CIF = 'historical.ppRaffia.cif-ns';
const MUMBAI = 'historical.ppRaffia.mumbai';
const NAPHTHA = 'feedstock.naphtha.japan';
const BRENT = 'feedstock.crude.brent';
const VA = 'feedstock.va.china';
const p = (date: string, value: number): PricePoint => ({ date, value });

describe('unit conversion', () => {
  it('converts a known CIF US$/t value to ₹/kg as worked by hand in docs/data.md', () => {
    // CIF Nhava Sheva PP raffia US$ 1,085/t on a Friday with the reference rate at ₹84.50/US$:
    // 1,085 × 84.50 = ₹91,682.50 per tonne; ÷ 1,000 kg = ₹91.6825/kg.
    const conversion = conversionFor(series(CIF), 'inr_kg');
    expect(conversion.ok && conversion.conversion.formula).toBe('₹/kg = US$/t × ₹/US$ of the day ÷ 1000');
    const fx = [p('2026-11-20', 84.5)];
    expect(convertPoints([p('2026-11-20', 1085)], conversion.ok ? conversion.conversion : (null as never), fx)).toEqual([p('2026-11-20', 91.6825)]);
  });

  it.each<[string, CompareUnit, number, number, number, string]>([
    // series, unit, value, ₹/US$, expected, unit label
    [NAPHTHA, 'native', 612.5, 85, 612.5, 'US$/t'],
    [NAPHTHA, 'usd_t', 612.5, 85, 612.5, 'US$/t'],
    [NAPHTHA, 'inr_kg', 612.5, 85, 52.0625, '₹/kg'],
    [MUMBAI, 'inr_kg', 104.5, 85, 104.5, '₹/kg'],
    [MUMBAI, 'usd_t', 110, 85, 1294.1176, 'US$/t'],
    [BRENT, 'usd_t', 80, 85, 603.84, 'US$/t'],
    [BRENT, 'inr_kg', 80, 85, 51.3264, '₹/kg'],
    [FX_SERIES_ID, 'native', 84.5, 84.5, 84.5, '₹/US$'],
  ])('%s in %s: %d at %d → %d %s', (id, unit, value, rate, expected, label) => {
    const result = conversionFor(series(id), unit);
    if (!result.ok) throw new Error(result.message);
    expect(result.conversion.unit).toBe(label);
    expect(convertPoints([p('2025-06-02', value)], result.conversion, [p('2025-06-02', rate)])).toEqual([p('2025-06-02', expected)]);
  });

  it.each<[string, CompareUnit, RegExp]>([
    [VA, 'inr_kg', /RMB/],
    [VA, 'usd_t', /no RMB exchange rate/],
    [FX_SERIES_ID, 'usd_t', /exchange rate itself/],
  ])('%s cannot be shown in %s', (id, unit, message) => {
    const result = conversionFor(series(id), unit);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it('derives barrels per tonne from API gravity, and has a factor for every crude series', () => {
    expect(specificGravityOfApi(10)).toBe(1);
    expect(barrelsPerTonne(1)).toBeCloseTo(6.2898, 4);
    expect(crudeFactors[BRENT]).toEqual({ barrelsPerTonne: 7.548, basis: 'Brent blend at API gravity 38.3° (SG 0.8333)' });
    for (const s of allSeries.filter((s) => s.unit === 'US$/bbl')) expect(crudeFactors[s.id], s.id).toBeDefined();
  });

  it('uses the rate of the day, else the latest before it, and leaves out points before the first rate', () => {
    const conversion = conversionFor(series(CIF), 'inr_kg');
    if (!conversion.ok) throw new Error();
    const fx = [p('2025-01-02', 80), p('2025-01-03', 90), p('2025-01-06', 100)];
    const points = [p('2025-01-01', 1000), p('2025-01-03', 1000), p('2025-01-04', 1000), p('2025-01-06', 1000), p('2025-02-01', 1000)];
    expect(convertPoints(points, conversion.conversion, fx)).toEqual([p('2025-01-03', 90), p('2025-01-04', 90), p('2025-01-06', 100), p('2025-02-01', 100)]);
  });
});

describe('transforms', () => {
  const line = [p('2025-01-01', 50), p('2025-01-02', 55), p('2025-01-03', 45), p('2025-01-04', 60)];

  it('indexes to 100 at the first point', () => {
    expect(indexTo100(line).map((x) => x.value)).toEqual([100, 110, 90, 120]);
    expect(indexTo100([])).toEqual([]);
    expect(indexTo100([p('2025-01-01', 0), p('2025-01-02', 3)])).toEqual([]);
  });

  it.each<[number, number[]]>([
    [0, [50, 55, 45, 60]],
    [1, [50, 55, 45, 60]],
    [2, [52.5, 50, 52.5]],
    [3, [50, 53.3333]],
    [4, [52.5]],
    [5, []],
  ])('moving average over %d points', (window, values) => {
    const out = movingAverage(line, window);
    expect(out.map((x) => x.value)).toEqual(values);
    expect(out.map((x) => x.date)).toEqual(line.slice(line.length - values.length).map((x) => x.date));
  });

  it('sums a line up over its range: last, change and % against the first, min, max, mean', () => {
    expect(lineStats(line)).toEqual({
      first: line[0], last: line[3], change: 10, changePct: 20, min: line[2], max: line[3], average: 52.5, count: 4,
    });
    expect(lineStats([])).toBeNull();
    expect(lineStats([p('2025-01-01', 0), p('2025-01-02', 2)])?.changePct).toBeNull();
  });
});

describe('ranges', () => {
  it.each([
    ['2026-03-31', 1, '2026-02-28'],
    ['2024-03-31', 1, '2024-02-29'],
    ['2026-01-15', 1, '2025-12-15'],
    ['2026-11-24', 12, '2025-11-24'],
    ['2026-11-24', 60, '2021-11-24'],
    ['2026-05-31', 3, '2026-02-28'],
  ])('%s less %d months is %s', (date, months, expected) => expect(monthsBefore(date, months)).toBe(expected));

  it('resolves presets back from today, and "all" from the first point', () => {
    expect(presetRange('5Y', '2026-11-24')).toEqual({ from: '2021-11-24', to: '2026-11-24' });
    expect(presetRange('1M', '2026-11-24')).toEqual({ from: '2026-10-24', to: '2026-11-24' });
    expect(presetRange('all', '2026-11-24', '2014-01-01')).toEqual({ from: '2014-01-01', to: '2026-11-24' });
  });

  it.each<[string | null, string | null, { from: string; to: string } | null]>([
    ['2019-04-01', '2024-03-31', { from: '2019-04-01', to: '2024-03-31' }],
    ['2024-03-31', '2019-04-01', null],
    ['2019-02-30', '2024-03-31', null],
    ['2027-01-01', '2027-02-01', null],
    ['2026-01-01', '2027-02-01', { from: '2026-01-01', to: '2026-11-24' }],
    [null, '2024-03-31', null],
    ['2024-05-05', '2024-05-05', { from: '2024-05-05', to: '2024-05-05' }],
  ])('custom %s … %s', (from, to, expected) => expect(customRange(from, to, '2026-11-24')).toEqual(expected));
});

describe('state in the URL', () => {
  const today = '2026-11-24';
  const read = (query: string) => readCompareState(new URLSearchParams(query), today);

  it('reads a full state and writes it back as the same canonical query', () => {
    const query = `s=${NAPHTHA},${MUMBAI},${CIF}&range=5Y&unit=inr_kg&view=indexed&ma=30`;
    const { state, notes } = read(query);
    expect(notes).toEqual([]);
    expect(state).toEqual({ ids: [NAPHTHA, MUMBAI, CIF], range: '5Y', from: null, to: null, unit: 'inr_kg', view: 'indexed', ma: 30 });
    expect(compareSearch(state)).toBe(query);
    expect(compareHref(read('').state)).toBe('/compare');
    expect(compareSearch(read('range=custom&from=2019-04-01&to=2024-03-31&s=fx.usdinr').state)).toBe('s=fx.usdinr&range=custom&from=2019-04-01&to=2024-03-31');
  });

  it('forgives a bad link: unknown series, too many, bad range, unit, view and average fall back and are said', () => {
    const many = allSeries.slice(0, 8).map((s) => s.id);
    const { state, notes } = read(`s=nope,${many.join(',')}&range=2W&unit=kg&view=pie&ma=9`);
    expect(state).toEqual({ ids: many.slice(0, 6), range: '1Y', from: null, to: null, unit: 'native', view: 'prices', ma: 0 });
    expect(notes).toEqual([
      'There is no series “nope”; it was left out.',
      'A chart compares at most 6 series; the last 2 were left out.',
      '“2W” is not a range; showing 1Y.',
      '“kg” is not a unit; showing each series as quoted.',
      '“pie” is not a view; showing prices.',
      '“9” is not a moving average; showing none.',
    ]);
    expect(read('range=custom&from=2024-03-31&to=2019-04-01').state.range).toBe('1Y');
    expect(read('range=custom&from=2024-03-31&to=2019-04-01').notes[0]).toMatch(/custom dates/);
  });

  it('adds and removes series as the "Add to compare" and remove links ask, each once', () => {
    expect(read(`s=${NAPHTHA}&add=${CIF},${NAPHTHA}`).state.ids).toEqual([NAPHTHA, CIF]);
    expect(read(`s=${NAPHTHA},${CIF}&remove=${NAPHTHA}`).state.ids).toEqual([CIF]);
  });

  it('gives the /api/series query of what is shown', () => {
    const { state } = read(`s=${NAPHTHA},${CIF}&range=5Y&unit=inr_kg&ma=7`);
    const range = resolveRange(state, today);
    expect(seriesQuery(state, range)).toBe(`ids=${NAPHTHA},${CIF}&from=2021-11-24&to=2026-11-24&unit=inr_kg&ma=7`);
    expect(resolveRange(read('range=all').state, today, '2014-01-01')).toEqual({ from: '2014-01-01', to: today });
  });
});

describe('a comparison', () => {
  const fx = [p('2024-12-31', 80), p('2025-01-01', 80), p('2025-01-02', 80), p('2025-01-03', 80), p('2025-01-06', 100)];
  const options = { range: { from: '2025-01-02', to: '2025-01-06' }, unit: 'inr_kg' as const, view: 'prices' as const, ma: 0 as const };
  const points = new Map([
    [NAPHTHA, [p('2025-01-01', 500), p('2025-01-02', 600), p('2025-01-03', 700), p('2025-01-06', 800)]],
    [MUMBAI, [p('2025-01-06', 100)]],
  ]);

  it('converts, cuts to the range and sums up each line', () => {
    const result = buildComparison([series(NAPHTHA), series(MUMBAI)], points, fx, options);
    if (!result.ok) throw new Error(result.message);
    const [naphtha, mumbai] = result.comparison.lines;
    expect(naphtha!.points).toEqual([p('2025-01-02', 48), p('2025-01-03', 56), p('2025-01-06', 80)]);
    expect(naphtha!.stats).toMatchObject({ change: 32, changePct: 66.6667, average: 61.3333 });
    expect(mumbai!.points).toEqual([p('2025-01-06', 100)]);
    expect(result.comparison.valueLabel).toBe('₹/kg');
  });

  it('smooths with points from before the range, then indexes the smoothed line', () => {
    const result = buildComparison([series(NAPHTHA)], points, fx, { ...options, unit: 'usd_t', view: 'indexed', ma: 7 });
    if (!result.ok) throw new Error(result.message);
    // Four points cannot fill a 7-point window.
    expect(result.comparison.lines[0]!.points).toEqual([]);
    const two = buildComparison([series(NAPHTHA)], points, fx, { ...options, unit: 'usd_t', view: 'indexed', ma: 0 });
    expect(two.ok && two.comparison.lines[0]!.points.map((x) => x.value)).toEqual([100, 116.6667, 133.3333]);
    expect(two.ok && two.comparison.valueLabel).toBe('Index, first point = 100');
    expect(readStart(series(NAPHTHA), { ...options, ma: 7 })).toBe('2024-12-05');
    expect(readStart(series(MUMBAI), { ...options, ma: 30 })).toBe('2023-10-26');
    expect(fxReadStart([series(NAPHTHA)], options)).toBe('2024-12-19');
  });

  it('a 7-point average starts at the first date of the range, from the points before it', () => {
    const daily = Array.from({ length: 10 }, (_, i) => p(`2025-01-${String(i + 1).padStart(2, '0')}`, 10 * (i + 1)));
    const result = buildComparison([series(NAPHTHA)], new Map([[NAPHTHA, daily]]), [], { range: { from: '2025-01-08', to: '2025-01-10' }, unit: 'native', view: 'prices', ma: 7 });
    if (!result.ok) throw new Error(result.message);
    // 8 Jan: mean of 2–8 Jan = (20 + … + 80) ÷ 7 = 50.
    expect(result.comparison.lines[0]!.points).toEqual([p('2025-01-08', 50), p('2025-01-09', 60), p('2025-01-10', 70)]);
    expect(result.comparison.valueLabel).toBe('US$/t, 7-point moving average');
  });

  it('names the series a unit cannot take', () => {
    expect(unconvertible([series(NAPHTHA), series(VA), series(FX_SERIES_ID)], 'usd_t').map((u) => u.seriesId)).toEqual([VA, FX_SERIES_ID]);
    expect(unconvertible([series(NAPHTHA), series(VA)], 'native')).toEqual([]);
  });

  it('converts what it can and keeps a series the unit cannot take as quoted, saying why', () => {
    const vaPoints = new Map([...points, [VA, [p('2025-01-03', 7100), p('2025-01-06', 7150)]]]);
    const result = buildComparison([series(NAPHTHA), series(VA)], vaPoints, fx, options);
    if (!result.ok) throw new Error(result.message);
    const [naphtha, va] = result.comparison.lines;
    expect(naphtha!.unit).toBe('₹/kg');
    expect(naphtha!.notConverted).toBeNull();
    expect(naphtha!.points).toEqual([p('2025-01-02', 48), p('2025-01-03', 56), p('2025-01-06', 80)]);
    expect(va!.unit).toBe('RMB/t');
    expect(va!.points).toEqual([p('2025-01-03', 7100), p('2025-01-06', 7150)]);
    expect(va!.notConverted).toEqual({ message: 'Vinyl acetate · China (RMB/t) cannot be shown in ₹/kg: PolyIndex keeps no RMB exchange rate.', reason: 'PolyIndex keeps no RMB exchange rate' });
    expect(va!.conversion.formula).toBe('as quoted: Vinyl acetate · China (RMB/t) cannot be shown in ₹/kg: PolyIndex keeps no RMB exchange rate.');
    expect(result.comparison.valueLabel).toBe('₹/kg and RMB/t');
  });

  it('labels mixed native units per line', () => {
    const result = buildComparison([series(NAPHTHA), series(MUMBAI)], points, fx, { ...options, unit: 'native' });
    if (!result.ok) throw new Error(result.message);
    expect(result.comparison.valueLabel).toBe('US$/t and ₹/kg');
    expect(lineName(result.comparison.lines[1]!, result.comparison)).toBe('PP Raffia · Mumbai ex-works (incl. GST) (₹/kg)');
  });

  const compared = (ids: readonly string[], unit: Comparison['unit'], view: Comparison['view'] = 'prices') => {
    const result = buildComparison(ids.map(series), new Map(), fx, { ...options, unit, view });
    if (!result.ok) throw new Error(result.message);
    return result.comparison;
  };

  it.each<[string, readonly string[], Comparison['unit'], Comparison['view'], string]>([
    ['one unit', [NAPHTHA, CIF], 'inr_kg', 'prices', 'Values in ₹/kg. Converted per date with the ₹/US$ reference rate (fx.usdinr); taxes, duties and freight stay as each series is quoted.'],
    ['an unconvertible series', [NAPHTHA, MUMBAI, VA], 'inr_kg', 'prices', 'Values in ₹/kg. Vinyl acetate · China (RMB/t) cannot be converted: it keeps its own axis below. Converted per date with the ₹/US$ reference rate (fx.usdinr); taxes, duties and freight stay as each series is quoted.'],
    ['two of them', [MUMBAI, VA, FX_SERIES_ID], 'inr_kg', 'prices', 'Values in ₹/kg. Vinyl acetate · China (RMB/t) and US dollar to Indian rupee (₹/US$) cannot be converted: each keeps its own axis below.'],
    ['nothing convertible', [VA], 'usd_t', 'prices', 'As quoted: Vinyl acetate · China (RMB/t) cannot be shown in US$/t.'],
    ['mixed units as quoted', [NAPHTHA, MUMBAI], 'native', 'prices', 'Each series as quoted, one axis per unit: US$/t and ₹/kg.'],
    ['two series in one unit', [NAPHTHA, CIF], 'native', 'prices', 'Values in US$/t, as quoted.'],
    ['indexed', [NAPHTHA, VA], 'inr_kg', 'indexed', 'Index, first point = 100: each series against its own first value.'],
  ])('says what the values are in: %s', (_, ids, unit, view, caption) => expect(comparisonCaption(compared(ids, unit, view))).toBe(caption));

  it.each<[string, readonly string[], Comparison['unit'], Comparison['view'], [string, string[]][]]>([
    ['the chosen unit first, then each unit a series keeps', [VA, NAPHTHA, FX_SERIES_ID, MUMBAI], 'inr_kg', 'prices', [['₹/kg', [NAPHTHA, MUMBAI]], ['RMB/t', [VA]], ['₹/US$', [FX_SERIES_ID]]]],
    ['as quoted: one panel per unit, in order', [NAPHTHA, MUMBAI, CIF], 'native', 'prices', [['US$/t', [NAPHTHA, CIF]], ['₹/kg', [MUMBAI]]]],
    ['indexed: one panel', [NAPHTHA, VA], 'usd_t', 'indexed', [['Index (first point = 100)', [NAPHTHA, VA]]]],
  ])('draws %s', (_, ids, unit, view, expected) => {
    const comparison = compared(ids, unit, view);
    const panels = chartPanels(comparison);
    expect(panels.map((panel) => [panel.unit, panel.lines.map((l) => comparison.lines.find((c) => c.label === l.id)!.id)])).toEqual(expected);
    // A line keeps its colour whichever panel it is in.
    for (const panel of panels) panel.lines.forEach((l, i) => expect(panel.colors[i]).toBe(lineColor(comparison.lines.findIndex((c) => c.label === l.id))));
  });
});

describe('the chart', () => {
  it('thins each line for drawing and passes it to the island as compact text, read back the same', () => {
    const points = Array.from({ length: 1000 }, (_, i) => p(new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10), 500 + i / 4));
    const result = buildComparison([series(NAPHTHA)], new Map([[NAPHTHA, points]]), [], { range: { from: '2020-01-01', to: '2030-01-01' }, unit: 'native', view: 'prices', ma: 0 });
    if (!result.ok) throw new Error(result.message);
    const lines = chartPanels(result.comparison)[0]!.lines;
    expect(lines[0]!.data).toHaveLength(CHART_POINTS);
    expect(lines[0]!.data.at(-1)).toEqual({ x: points.at(-1)!.date, y: points.at(-1)!.value });
    const text = encodeChartSeries(lines);
    expect(decodeChartSeries(text)).toEqual(lines);
    expect(text.split('"').length - 1).toBe(2);
  });
});
