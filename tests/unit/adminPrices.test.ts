import { describe, expect, it } from 'vitest';
import { businessDaysBetween, freshnessOf, freshnessReport } from '../../src/lib/admin/freshness.ts';
import { checkImport, checkImportInSlices, countBySeries, IMPORT_SLICE } from '../../src/lib/admin/priceImport.ts';
import { basisFields, csvIntro } from '../../src/lib/basis.ts';
import { basisRow, BYTE_ORDER_MARK, CSV_HEADER, parsePriceCsv, toPriceCsv } from '../../src/lib/csv.ts';
import { priceDateProblem, priceProblem, UNIT_RANGES, valueProblem } from '../../src/lib/priceRanges.ts';
import { findSeries, seriesBasis } from '../../src/lib/seriesCatalog.ts';

const brent = findSeries('feedstock.crude.brent')!;
const weekly = findSeries('historical.ppRaffia.mumbai')!;
/** India's day when these checks run (every row below is dated before it). */
const TODAY = '2026-11-27';

describe('business days', () => {
  it.each([
    ['2026-11-20', '2026-11-20', 0], // Friday → same day
    ['2026-11-20', '2026-11-23', 1], // Friday → Monday
    ['2026-11-20', '2026-11-22', 0], // Friday → Sunday
    ['2026-11-16', '2026-11-23', 5], // Monday → next Monday
    ['2026-11-02', '2026-11-25', 17],
    ['2026-11-25', '2026-11-20', 0],
  ])('%s → %s: %i', (from, to, n) => expect(businessDaysBetween(from, to)).toBe(n));
});

describe('freshness', () => {
  it('a daily series is stale after 3 business days, a weekend is not counted', () => {
    expect(freshnessOf(brent, '2026-11-20', '2026-11-25').stale).toBe(false); // Fri → Wed: 3 business days
    expect(freshnessOf(brent, '2026-11-20', '2026-11-26').stale).toBe(true); // Fri → Thu: 4
    expect(freshnessOf(brent, '2026-11-20', '2026-11-26').age).toBe(4);
  });
  it('a weekly series is stale after 10 days; a series without points is stale', () => {
    expect(freshnessOf(weekly, '2026-11-12', '2026-11-22').stale).toBe(false);
    expect(freshnessOf(weekly, '2026-11-11', '2026-11-22').stale).toBe(true);
    expect(freshnessOf(weekly, null, '2026-11-22')).toMatchObject({ stale: true, age: null });
  });
  it('sorts stale first, oldest first', () => {
    const report = freshnessReport([brent, weekly], new Map([['feedstock.crude.brent', '2026-11-01'], ['historical.ppRaffia.mumbai', '2026-11-20']]), '2026-11-22');
    expect(report.map((f) => [f.series.id, f.stale])).toEqual([['feedstock.crude.brent', true], ['historical.ppRaffia.mumbai', false]]);
  });
});

describe('value ranges by unit', () => {
  it('accepts values inside the range, refuses others', () => {
    expect(valueProblem('US$/bbl', 88.88)).toBeNull();
    expect(valueProblem('US$/bbl', 501)).toMatch(/between 5 and 500 US\$\/bbl/);
    expect(valueProblem('₹/US$', 39)).not.toBeNull();
    expect(valueProblem('₹/kg', -1)).toMatch(/positive/);
    expect(valueProblem('US$/t', Number.NaN)).toMatch(/number/);
    // The delivery code's old spellings read as the same units.
    expect(valueProblem('₹/kg', 1001)).toMatch(/between 5 and 1000 ₹\/kg/);
    for (const range of Object.values(UNIT_RANGES)) expect(range.min).toBeGreaterThan(0);
  });

  it('refuses more decimals than a price is quoted in (issue 20: nothing stored that the pages would hide)', () => {
    expect(priceProblem({ unit: '₹/kg' }, 104.5)).toBeNull();
    expect(priceProblem({ unit: '₹/kg' }, 104.505)).toMatch(/at most 2 decimals/);
    expect(priceProblem({ unit: 'US$/t', decimals: 0 }, 1085)).toBeNull();
    expect(priceProblem({ unit: 'US$/t', decimals: 0 }, 1085.5)).toMatch(/whole number/);
    expect(priceProblem({ unit: '₹/US$' }, 84.3542)).toBeNull();
    expect(priceProblem({ unit: '₹/US$' }, 84.35421)).toMatch(/at most 4 decimals/);
    expect(priceProblem({ unit: '₹/kg' }, 5000)).toMatch(/between/);
  });
});

describe('import check', () => {
  it('refuses a row dated after today (IST), naming line and field; today itself is fine', () => {
    expect(priceDateProblem('2026-11-27', TODAY)).toBeNull();
    expect(priceDateProblem('2026-11-28', TODAY)).toMatch(/after today \(2026-11-27 IST\)/);
    const check = checkImport(`${CSV_HEADER}\nfx.usdinr,2026-11-27,83\nfx.usdinr,2116-01-01,83\nfx.usdinr,2026-11-28,83\n`, TODAY);
    expect(check).toEqual({
      ok: false,
      tooManyRows: false,
      errors: [
        { line: 3, field: 'date', message: expect.stringMatching(/2116-01-01 is after today/) },
        { line: 4, field: 'date', message: expect.stringMatching(/2026-11-28 is after today/) },
      ],
    });
  });
  it('names line and field; blank lines keep line numbers right', () => {
    const check = checkImport(`${CSV_HEADER}\n\nfx.usdinr,2025-01-02,83\n\nfx.usdinr,2025-01-03,300\n`, TODAY);
    expect(check).toEqual({ ok: false, tooManyRows: false, errors: [{ line: 5, field: 'value', message: expect.stringMatching(/between 40 and 200/) }] });
  });
  it('passes a good file and counts rows per series', () => {
    const check = checkImport(`\uFEFF${CSV_HEADER}\r\nfx.usdinr,2025-01-02,83\r\nfeedstock.crude.brent,2025-01-02,80\r\nfx.usdinr,2025-01-03,83.5\r\n`, TODAY);
    expect(check.ok).toBe(true);
    if (check.ok) expect(countBySeries(check.rows)).toEqual({ 'fx.usdinr': 2, 'feedstock.crude.brent': 1 });
  });
  it('refuses a value with more decimals than its series is quoted in', () => {
    expect(checkImport(`${CSV_HEADER}\nhistorical.ppRaffia.cif-ns,2025-01-03,1085.5\n`, TODAY)).toEqual({
      ok: false,
      tooManyRows: false,
      errors: [{ line: 2, field: 'value', message: expect.stringMatching(/whole number/) }],
    });
  });
});

describe('import of an export with its header rows (issue 20)', () => {
  const site = 'https://polyindex.test';
  const naphtha = findSeries('feedstock.naphtha.japan')!;
  const exported = (unit?: string) => {
    const fields = basisFields(seriesBasis(naphtha), naphtha.label, site).map(([k, v]): [string, string] => [k, k === 'unit' && unit !== undefined ? unit : v]);
    return toPriceCsv({ series: naphtha.id, points: [{ date: '2025-01-02', value: 612.5 }], decimals: 2, basis: fields }, csvIntro(site));
  };

  it('writes the intro and the basis row before the column header, and reads them back', () => {
    const text = exported();
    const lines = text.split('\n');
    expect(lines[0]).toBe('# PolyIndex prices: each series’ basis on its own row below and then one row per price. Methodology: https://polyindex.test/methodology');
    expect(lines[1]).toBe(
      '# basis: series=feedstock.naphtha.japan; label=Naphtha · Japan; basis=CFR Japan; price=desk assessment of traded levels; taxes=excl. import duties and taxes; unit=US$/t; published=daily (Mon–Fri) by 17:30 IST (after the Singapore close at 14:00 IST); source=PolyIndex price desk; methodology=https://polyindex.test/methodology/feedstocks; decimals=2',
    );
    expect(lines[2]).toBe(CSV_HEADER);
    const parsed = parsePriceCsv(BYTE_ORDER_MARK + text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.headerRows).toEqual([
      { line: 1, fields: null },
      { line: 2, fields: expect.objectContaining({ series: naphtha.id, unit: 'US$/t', basis: 'CFR Japan' }) },
    ]);
    expect(parsed.rows).toEqual([{ series: naphtha.id, date: '2025-01-02', value: 612.5 }]);
  });

  it('imports an export with rows added, and the same file as a spreadsheet program saves it (empty cells, \\r\\n)', () => {
    const added = `${exported()}${naphtha.id},2025-01-03,610\n`;
    expect(checkImport(added, TODAY)).toMatchObject({ ok: true, rows: [{ value: 612.5 }, { value: 610 }] });
    const resaved = added.split('\n').map((line) => (line.startsWith('#') ? `${line},,` : line)).join('\r\n');
    expect(checkImport(resaved, TODAY)).toMatchObject({ ok: true });
    // An old spelling of the same unit is the same unit.
    expect(checkImport(exported('US$/MT'), TODAY).ok).toBe(true);
  });

  it.each([
    ['a unit that is not the series’ own', 'RMB/t', /says feedstock\.naphtha\.japan is in RMB\/t, but it is kept in US\$\/t/],
    ['a converted unit', '₹/kg', /is in ₹\/kg, but it is kept in US\$\/t/],
    ['a unit PolyIndex does not know', '?/t', /not a unit PolyIndex knows/],
  ])('refuses a header row with %s: line 2, field header, nothing imported', (_what, unit, message) => {
    expect(checkImport(exported(unit), TODAY)).toEqual({ ok: false, tooManyRows: false, errors: [{ line: 2, field: 'header', message: expect.stringMatching(message) }] });
  });

  it.each([
    ['a basis row without its series', `# basis: unit=US$/t\n${CSV_HEADER}\n`, 1, /must name its series/],
    ['a basis row that is not key=value pairs', `# basis: series=fx.usdinr; reference rate\n${CSV_HEADER}\n`, 1, /key=value pairs/],
    ['a line before the column header that is not a # row', `# intro\nhello\n${CSV_HEADER}\n`, 2, /after the # rows/],
    ['no column header at all', `# intro\n# basis: series=fx.usdinr; unit=₹/US$\n`, 3, /no "series,date,value" line/],
    ['a # row after the column header', `${CSV_HEADER}\n# basis: series=fx.usdinr; unit=₹/US$\n`, 2, /series/],
  ])('refuses %s', (_what, text, line, message) => {
    const check = checkImport(text, TODAY);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.errors[0]).toMatchObject({ line, message: expect.stringMatching(message) });
  });

  it('leaves a header row of a series the catalog does not keep to the data rows (a converted comparison line)', () => {
    expect(checkImport(`# basis: series=feedstock.naphtha.japan.inr_kg; unit=₹/kg\n${CSV_HEADER}\n`, TODAY)).toMatchObject({ ok: true, rows: [] });
    expect(checkImport(`# basis: series=feedstock.naphtha.japan.inr_kg; unit=₹/kg\n${CSV_HEADER}\nfeedstock.naphtha.japan.inr_kg,2025-01-02,52.06\n`, TODAY)).toMatchObject({ ok: false, errors: [{ field: 'series' }] });
  });

  it('never writes a header row that would break the format', () => {
    expect(() => basisRow('fx.usdinr', [['label', 'a, b']])).toThrow(RangeError);
    expect(() => basisRow('fx.usdinr', [['a b', 'x']])).toThrow(RangeError);
    expect(() => toPriceCsv({ series: 'fx.usdinr', points: [], decimals: 4 }, 'one, two')).toThrow(RangeError);
  });
});

describe('outbox text and banner images (pure)', () => {
  it('reads an outbox message with mailparser: the text/plain part, transfer encodings and RFC 2047 headers undone', async () => {
    const { readMail } = await import('../../src/server/mail/outbox.ts');
    const b64 = Buffer.from('Namaste ₹ <b>').toString('base64');
    const raw = `Subject: =?UTF-8?B?${Buffer.from('Dainik ₹ bhav').toString('base64')}?=\r\nFrom: PolyIndex <desk@polyindex.test>\r\nTo: a@example.test, b@example.test\r\nList-Unsubscribe: <http://x.test/api/unsubscribe?token=t>\r\nContent-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\nContent-Type: text/html\r\n\r\n<p>no</p>\r\n--zz\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64}\r\n--zz--\r\n`;
    const mail = await readMail(raw);
    expect(mail).toMatchObject({ subject: 'Dainik ₹ bhav', from: '"PolyIndex" <desk@polyindex.test>', to: 'a@example.test, b@example.test', text: 'Namaste ₹ <b>' });
    expect(mail.header('list-unsubscribe')).toBe('<http://x.test/api/unsubscribe?token=t>');
    expect(mail.header('reply-to')).toBeNull();
    expect((await readMail('Subject: y\nContent-Transfer-Encoding: quoted-printable\n\nsoft=\nbreak =E2=82=B9\n')).text).toBe('softbreak ₹');
    expect((await readMail('Content-Type: text/html\n\n<p>x</p>')).text).toBeNull();
  });

  it('recognises PNG, JPEG and WebP by their bytes only; site paths only', async () => {
    const { imageExtOf, isSitePath } = await import('../../src/lib/admin/bannerImage.ts');
    expect(imageExtOf(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(imageExtOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpg');
    expect(imageExtOf(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(imageExtOf(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageExtOf(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(['/', '/crude/Naphtha', '/news?x=1'].map(isSitePath)).toEqual([true, true, true]);
    expect(['//evil.example', 'https://evil.example', 'javascript:alert(1)', '/a b', '/\\evil', ''].map(isSitePath)).toEqual([false, false, false, false, false, false]);
  });
});

describe('checking a large import in slices', () => {
  it('gives the same answer as checkImport, pausing every IMPORT_SLICE lines', async () => {
    const lines = [CSV_HEADER];
    for (let i = 0; i < 5 * IMPORT_SLICE; i++) lines.push(`fx.usdinr,${new Date(Date.UTC(1990, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)},83.5`);
    const text = `${lines.join('\n')}\n`;
    let pauses = 0;
    const sliced = await checkImportInSlices(text, TODAY, async () => void pauses++);
    expect(sliced).toEqual(checkImport(text, TODAY));
    expect(sliced.ok).toBe(true);
    // Parsing and checking each pause at least once per slice.
    expect(pauses).toBeGreaterThanOrEqual(2 * 5 - 2);
  });

  it('reports bad rows as checkImport does', async () => {
    const text = `${CSV_HEADER}\nfx.usdinr,2025-01-02,83\nfx.usdinr,2025-01-03,3000\nnope,2025-01-02,1\n`;
    expect(await checkImportInSlices(text, TODAY, async () => undefined)).toEqual(checkImport(text, TODAY));
  });
});
