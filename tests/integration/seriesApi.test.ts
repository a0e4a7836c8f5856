// GET /api/series and the comparison exports (CSV, XLSX, SVG, PNG), calling each route's GET
// with an APIContext-like object, against the real SQLite store of the test DATA_DIR (seeded
// with demo data on first open). Expected values are computed here from the store's own points
// with the documented formula, not through the code under test.
import type { APIContext, APIRoute } from 'astro';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entitlement } from '../../src/lib/access/policy.ts';
import { parsePriceCsv } from '../../src/lib/csv.ts';
import { addDays, isoDateOf } from '../../src/lib/dates.ts';
import type { PricePoint } from '../../src/lib/priceTypes.ts';
import { roundTo } from '../../src/lib/numbers.ts';
import type { Session } from '../../src/server/auth/session.ts';
import type { Store } from '../../src/server/store/index.ts';

let series: APIRoute;
let exporter: APIRoute;
let store: Store;

beforeAll(async () => {
  series = (await import('../../src/pages/api/series/index.ts')).GET;
  exporter = (await import('../../src/pages/api/series/export.[format].ts')).GET;
  store = await (await import('../../src/server/runtime.ts')).store();
});

afterAll(async () => {
  // The runtime's own close: the next user of the runtime (a later file in this worker) opens it anew.
  await (await import('../../src/server/runtime.ts')).closeStore();
});

const sessionAs = (entitlement: Entitlement | 'anonymous'): Session | null =>
  entitlement === 'anonymous' ? null : { uid: `u-${entitlement}`, email: null, record: null, entitlement, inTrial: null };

async function call(route: 'series' | 'export', path: string, role: Entitlement | 'anonymous' = 'full', params: Record<string, string> = {}): Promise<Response> {
  const url = new URL(path, 'http://127.0.0.1:4321');
  const context = { request: new Request(url), url, params, locals: { session: sessionAs(role) } };
  return (route === 'series' ? series : exporter)(context as unknown as APIContext);
}

interface Answer {
  from: string;
  to: string;
  unit: string;
  valueLabel: string;
  fx: { series: string } | null;
  series: {
    id: string;
    label: string;
    unit: string;
    nativeUnit: string;
    decimals: number;
    basis: Record<string, unknown> & { location: string; terms: string | null };
    conversion: { formula: string };
    notConverted: string | null;
    stats: { last: PricePoint; count: number } | null;
    dates: string[];
    values: number[];
    lows?: (number | null)[];
    highs?: (number | null)[];
    corrections: { date: string; value: number; previous: number; correctedOn: string }[];
  }[];
}

const CIF = 'historical.ppRaffia.cif-ns';
const MUMBAI = 'historical.ppRaffia.mumbai';
const NAPHTHA = 'feedstock.naphtha.japan';
const today = isoDateOf(new Date());
const from = addDays(today, -400);
const QUERY = `ids=${NAPHTHA},${MUMBAI},${CIF}&from=${from}&to=${today}&unit=inr_kg`;

/** The USD/INR of a date by the documented rule: that day's, else the latest before it. */
const rateOn = (fx: readonly PricePoint[], date: string) => fx.filter((p) => p.date <= date).at(-1)!.value;

describe('access', () => {
  it.each([
    ['series', `/api/series?${QUERY}`, {}],
    ['export', `/api/series/export.csv?${QUERY}`, { format: 'csv' }],
    ['export', `/api/series/export.png?${QUERY}`, { format: 'png' }],
  ] as const)('%s %s: anonymous 401, none/limited 403, full/admin 200', async (route, path, params) => {
    const status = async (role: Entitlement | 'anonymous') => (await call(route, path, role, params)).status;
    expect(await status('anonymous')).toBe(401);
    expect(await status('none')).toBe(403);
    expect(await status('limited')).toBe(403);
    expect(await status('full')).toBe(200);
    expect(await status('admin')).toBe(200);
  });

  it('refuses before validating: a bad query from an anonymous visitor is 401', async () => {
    expect((await call('series', '/api/series?ids=nope', 'anonymous')).status).toBe(401);
  });
});

describe('GET /api/series', () => {
  it('answers each series in ₹/kg, converted per date with fx.usdinr by the documented formula', async () => {
    const response = await call('series', `/api/series?${QUERY}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('private, max-age=60');
    const answer = (await response.json()) as Answer;
    expect(answer).toMatchObject({ from, to: today, unit: 'inr_kg', valueLabel: '₹/kg', fx: { series: 'fx.usdinr' } });
    expect(answer.series.map((s) => [s.id, s.nativeUnit, s.unit])).toEqual([
      [NAPHTHA, 'US$/t', '₹/kg'],
      [MUMBAI, '₹/kg', '₹/kg'],
      [CIF, 'US$/t', '₹/kg'],
    ]);
    const fx = await store.points('fx.usdinr', { from: addDays(from, -30), to: today });
    const cif = await store.points(CIF, { from, to: today });
    const line = answer.series[2]!;
    expect(line.dates).toEqual(cif.map((p) => p.date));
    expect(line.values).toEqual(cif.map((p) => roundTo((p.value * rateOn(fx, p.date)) / 1000, 4)));
    // Mumbai is quoted in ₹/kg already: its values are the store's.
    expect(answer.series[1]!.values).toEqual((await store.points(MUMBAI, { from, to: today })).map((p) => p.value));
    expect(answer.series[2]!.stats?.last).toEqual({ date: line.dates.at(-1), value: line.values.at(-1) });
    expect(answer.series[2]!.conversion.formula).toBe('₹/kg = US$/t × ₹/US$ of the day ÷ 1000');
  });

  it('answers native units without a rate, the last twelve months by default, and an ETag with 304', async () => {
    const response = await call('series', `/api/series?ids=${NAPHTHA}`);
    const answer = (await response.json()) as Answer;
    expect(answer.fx).toBeNull();
    expect(answer.to).toBe(today);
    expect(answer.series[0]!.values).toEqual((await store.points(NAPHTHA, { from: answer.from, to: today })).map((p) => p.value));
    const etag = response.headers.get('ETag')!;
    const url = new URL(`/api/series?ids=${NAPHTHA}`, 'http://127.0.0.1:4321');
    const again = await series({ request: new Request(url, { headers: { 'If-None-Match': etag } }), url, params: {}, locals: { session: sessionAs('full') } } as unknown as APIContext);
    expect(again.status).toBe(304);
  });

  it('indexes to 100 and smooths on request', async () => {
    const answer = (await (await call('series', `/api/series?ids=${NAPHTHA},${CIF}&from=${from}&to=${today}&unit=usd_t&view=indexed&ma=7`)).json()) as Answer;
    for (const line of answer.series) {
      expect(line.values[0]).toBe(100);
      expect(line.dates[0]! >= from).toBe(true);
    }
    expect(answer.valueLabel).toBe('Index, first point = 100, 7-point moving average');
  });

  it.each([
    ['', 'ids'],
    ['ids=', 'ids'],
    ['ids=nope.series', 'ids'],
    [`ids=${NAPHTHA},${NAPHTHA}`, 'ids'],
    [`ids=${NAPHTHA},,${CIF}`, 'ids'],
    [`ids=${['feedstock.crude.brent', NAPHTHA, CIF, MUMBAI, 'fx.usdinr', 'feedstock.naphtha.china', 'feedstock.va.china'].join(',')}`, 'ids'],
    [`ids=${NAPHTHA}&from=2024-02-30`, 'from'],
    [`ids=${NAPHTHA}&from=24-01-2024`, 'from'],
    [`ids=${NAPHTHA}&to=tomorrow`, 'to'],
    [`ids=${NAPHTHA}&from=2025-01-02&to=2025-01-01`, 'from'],
    [`ids=${NAPHTHA}&unit=kg`, 'unit'],
    [`ids=${NAPHTHA}&view=pie`, 'view'],
    [`ids=${NAPHTHA}&ma=9`, 'ma'],
    [`ids=${NAPHTHA}&ma=-7`, 'ma'],
  ])('400 for ?%s (field %s)', async (query, field) => {
    for (const [route, params] of [['series', {}], ['export', { format: 'xlsx' }]] as const) {
      const response = await call(route, `/api/series${route === 'export' ? '/export.xlsx' : ''}?${query}`, 'full', params);
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string; field: string } };
      expect(error.field).toBe(field);
      expect(error.message.length).toBeGreaterThan(10);
    }
  });

  it('converts what it can and answers a series the unit cannot take as quoted, saying why', async () => {
    const response = await call('series', `/api/series?ids=${NAPHTHA},feedstock.va.china,fx.usdinr&from=${from}&to=${today}&unit=usd_t`);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as Answer;
    expect(answer.series.map((s) => [s.id, s.unit, s.notConverted])).toEqual([
      [NAPHTHA, 'US$/t', null],
      ['feedstock.va.china', 'RMB/t', 'Vinyl acetate · China (RMB/t) cannot be shown in US$/t: PolyIndex keeps no RMB exchange rate.'],
      ['fx.usdinr', '₹/US$', 'US dollar to Indian rupee (₹/US$) cannot be shown in US$/t: it is the exchange rate itself.'],
    ]);
    // As quoted: the store's own prices.
    const va = await store.points('feedstock.va.china', { from, to: today });
    expect(answer.series[1]!.values).toEqual(va.map((p) => roundTo(p.value, answer.series[1]!.decimals)));
    expect(answer.valueLabel).toBe('US$/t, RMB/t and ₹/US$');
  });
});

describe('exports of what is shown', () => {
  const answerOf = async (query: string) => (await (await call('series', `/api/series?${query}`)).json()) as Answer;

  it('CSV: the price CSV format, converted lines named so the import refuses them', async () => {
    const response = await call('export', `/api/series/export.csv?${QUERY}`, 'full', { format: 'csv' });
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="polyindex-compare-${from}-to-${today}-inr_kg.csv"`);
    const { rows, errors } = parsePriceCsv(await response.text());
    expect(errors).toEqual([]);
    const answer = await answerOf(QUERY);
    const names = [`${NAPHTHA}.inr_kg`, MUMBAI, `${CIF}.inr_kg`];
    answer.series.forEach((line, i) => {
      const mine = rows.filter((r) => r.series === names[i]);
      expect(mine.map((r) => r.date)).toEqual(line.dates);
      expect(mine.map((r) => r.value)).toEqual(line.values);
    });
  });

  it('XLSX: a Data sheet (real dates, number formats, frozen header, filter), a Series sheet, the summary, a sheet per series, values equal to /api/series', async () => {
    const response = await call('export', `/api/series/export.xlsx?${QUERY}`, 'full', { format: 'xlsx' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await response.arrayBuffer());
    const answer = await answerOf(QUERY);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Data', 'Series', 'Summary', 'Naphtha · Japan', 'PP Raffia · Mumbai ex-works', 'PP Raffia · CIF Nhava Sheva']);

    // Data: Date × series.
    const data = book.getWorksheet('Data')!;
    expect(data.getRow(1).values).toEqual([undefined, 'Date', 'Naphtha · Japan (₹/kg)', 'PP Raffia · Mumbai ex-works (incl. GST) (₹/kg)', 'PP Raffia · CIF Nhava Sheva (₹/kg, mid)']);
    expect(data.views[0]).toMatchObject({ state: 'frozen', ySplit: 1, xSplit: 1 });
    expect(data.autoFilter).toBe('A1:D1');
    const allDates = [...new Set(answer.series.flatMap((l) => l.dates))].sort();
    expect(data.rowCount).toBe(allDates.length + 1);
    const byDate = new Map<string, ExcelJS.Row>();
    data.eachRow((row, n) => {
      if (n === 1) return;
      const date = row.getCell(1).value;
      expect(date).toBeInstanceOf(Date);
      expect(row.getCell(1).numFmt).toBe('yyyy-mm-dd');
      byDate.set((date as Date).toISOString().slice(0, 10), row);
    });
    expect([...byDate.keys()]).toEqual(allDates);
    answer.series.forEach((line, i) => {
      line.dates.forEach((date, j) => expect(byDate.get(date)!.getCell(i + 2).value, `${line.id} ${date}`).toBe(line.values[j]));
      // ₹/kg converted: four decimals; Mumbai as quoted: two.
      expect(byDate.get(line.dates[0]!)!.getCell(i + 2).numFmt).toBe(i === 1 ? '#,##0.00' : '#,##0.0000');
    });

    // Series: what each column is, with its basis and a link to its methodology.
    const seriesSheet = book.getWorksheet('Series')!;
    expect(seriesSheet.getRow(1).values).toEqual([undefined, 'Id', 'Series', 'Basis', 'Price', 'Taxes', 'Values in', 'Published', 'Source', 'Methodology', 'Decimals', 'Computed', 'Quoted as']);
    expect(seriesSheet.getRow(2).values).toEqual([undefined, NAPHTHA, 'Naphtha · Japan', 'CFR Japan', 'desk assessment of traded levels', 'excl. import duties and taxes', '₹/kg', expect.stringMatching(/^daily/), 'PolyIndex price desk', { text: 'http://127.0.0.1:4321/methodology/feedstocks', hyperlink: 'http://127.0.0.1:4321/methodology/feedstocks' }, '4', '₹/kg = US$/t × ₹/US$ of the day ÷ 1000', 'single value']);
    expect(seriesSheet.getRow(4).getCell(1).value).toBe(CIF);
    expect(seriesSheet.getRow(4).values, 'the CIF row').toContain('range (low–high)');
    expect(seriesSheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });

    // Summary: Change % as a percentage (the fraction, formatted), dates as dates.
    const summary = book.getWorksheet('Summary')!;
    expect(summary.getRow(6).getCell(1).value).toBe('Series');
    expect(summary.getRow(6).getCell(9).value).toBe('Change %');
    const naphtha = summary.getRow(7);
    expect(naphtha.getCell(1).value).toBe('Naphtha · Japan');
    expect(naphtha.getCell(5).value).toBeInstanceOf(Date);
    expect(naphtha.getCell(9).numFmt).toBe('0.00%');
    const stats = answer.series[0]!.stats as unknown as { changePct: number };
    expect(naphtha.getCell(9).value as number).toBeCloseTo(stats.changePct / 100, 6);
    expect(summary.getRow(9).getCell(7).value).toBe(answer.series[2]!.values.at(-1));

    // A sheet per series: basis rows, then the table; a range has low, high and mid.
    answer.series.forEach((line, i) => {
      const sheet = book.worksheets[i + 3]!;
      const rows: unknown[][] = [];
      let header = 0;
      sheet.eachRow((row, n) => {
        if (row.getCell(1).value === 'Date') header = n;
        else if (header > 0) rows.push((row.values as unknown[]).slice(1));
      });
      expect(sheet.getRow(1).values).toEqual([undefined, 'Series', line.label]);
      expect(sheet.getRow(2).values).toEqual([undefined, 'Basis', line.basis.location === 'Mumbai' ? 'ex-works Mumbai' : line.basis.terms === 'CIF' ? 'CIF Nhava Sheva' : 'CFR Japan']);
      expect(sheet.getRow(5).values).toEqual([undefined, 'Values in', '₹/kg']);
      expect(rows.map((r) => (r[0] as Date).toISOString().slice(0, 10))).toEqual(line.dates);
      if (line.id === CIF) {
        expect(sheet.getRow(header).values).toEqual([undefined, 'Date', 'Low (₹/kg)', 'High (₹/kg)', 'Mid (₹/kg)']);
        expect(rows.map((r) => r[1])).toEqual(line.lows);
        expect(rows.map((r) => r[2])).toEqual(line.highs);
        expect(rows.map((r) => r[3])).toEqual(line.values);
      } else {
        expect(rows.map((r) => r[1])).toEqual(line.values);
      }
    });
  });

  it('carries low and high for a range-quoted series, converted like its value; a single-value series has neither', async () => {
    const native = await answerOf(`ids=${CIF},${NAPHTHA}&from=${from}&to=${today}`);
    const stored = await store.points(CIF, { from, to: today });
    expect(stored.every((p) => p.low !== undefined)).toBe(true);
    expect(native.series[0]!.lows).toEqual(stored.map((p) => p.low));
    expect(native.series[0]!.highs).toEqual(stored.map((p) => p.high));
    // The mid with one decimal more than its whole-dollar ends: exact (1012.5).
    expect(native.series[0]!.values).toEqual(stored.map((p) => p.value));
    expect(native.series[1]!).not.toHaveProperty('lows');
    const converted = await answerOf(QUERY);
    const cif = converted.series[2]!;
    cif.dates.forEach((_, j) => {
      expect(cif.lows![j]!).toBeLessThan(cif.values[j]!);
      expect(cif.highs![j]!).toBeGreaterThan(cif.values[j]!);
    });
    const indexed = await answerOf(`ids=${CIF}&from=${from}&to=${today}&view=indexed`);
    expect(indexed.series[0]!).not.toHaveProperty('lows');
  });

  it('SVG and PNG: the chart with every series, as a file', async () => {
    const svg = await call('export', `/api/series/export.svg?${QUERY}`, 'full', { format: 'svg' });
    expect(svg.headers.get('Content-Type')).toBe('image/svg+xml; charset=utf-8');
    const text = await svg.text();
    expect(text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const label of ['Naphtha · Japan', 'PP Raffia · Mumbai ex-works (incl. GST)', 'PP Raffia · CIF Nhava Sheva']) expect(text).toContain(label);
    expect(text).toContain('₹/kg');
    const png = await call('export', `/api/series/export.png?${QUERY}`, 'full', { format: 'png' });
    expect(png.headers.get('Content-Type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const meta = await sharp(bytes).metadata();
    expect(meta.width).toBe(2400);
  });

  it('SVG: a series the unit cannot take is drawn on its own axis, under the others', async () => {
    const svgOf = async (ids: string) => (await call('export', `/api/series/export.svg?ids=${ids}&from=${from}&to=${today}&unit=inr_kg`, 'full', { format: 'svg' })).text();
    const heightOf = (text: string) => Number(/^<svg [^>]*height="(\d+)"/.exec(text)![1]);
    const mixed = await svgOf(`${NAPHTHA},${MUMBAI},feedstock.va.china`);
    const single = await svgOf(`${NAPHTHA},${MUMBAI}`);
    // The document, the ₹/kg panel and the RMB/t panel.
    expect(mixed.match(/<svg /g)).toHaveLength(3);
    expect(single.match(/<svg /g)).toHaveLength(2);
    expect(heightOf(mixed)).toBeGreaterThan(heightOf(single) + 200);
    expect(mixed).toContain('RMB/t');
    expect(mixed).toContain('Vinyl acetate · China as quoted');
  });

  it('an unknown format is a 404', async () => {
    expect((await call('export', `/api/series/export.pdf?${QUERY}`, 'full', { format: 'pdf' })).status).toBe(404);
  });
});
