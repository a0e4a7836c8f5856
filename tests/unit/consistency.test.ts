import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkConsistency, sameBasisGroups, type CheckedPost } from '../../src/lib/consistency.ts';
import { isoDateOf } from '../../src/lib/dates.ts';
import { generateDemoData } from '../../src/lib/demoData.ts';
import { demoRelations } from '../../src/lib/demoRelations.ts';
import { quoteText, readQuotes, resolveQuotes } from '../../src/lib/newsQuotes.ts';
import { cityLineId, CUSTOMS_LINE_ID, listPriceLineId, offerLineId, priceLines, valueAsOf, type PriceLine } from '../../src/lib/priceLines.ts';
import { historicalSeriesId } from '../../src/lib/seriesCatalog.ts';
import { postOfSeed, quotePosts, seedIdOf, seedPostSchema } from '../../src/server/posts/seed.ts';
import { demoAsStored } from '../../src/server/store/seedDemo.ts';

// The demo data as `npm run seed` writes it (ranges, producers' lists) on a day after the newest seed post.
const data = generateDemoData({ today: '2026-11-26' });
const lines = priceLines(demoAsStored(data, '2026-11-26'));
const relations = demoRelations();

const NEWS = resolve('src/content/news');
const seedPosts = (readdirSync(NEWS, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.md'))
  .toSorted()
  .map((file) => {
    const [, front, body] = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(readFileSync(join(NEWS, file), 'utf8'))!;
    return postOfSeed(seedIdOf(file), seedPostSchema.parse(parseYaml(front!)), body!);
  });
const quoted = quotePosts(seedPosts, lines);
const checked = (posts: readonly { id: string; publishAt: string | null; body: string }[]): CheckedPost[] =>
  posts.map((p) => ({ id: p.id, date: isoDateOf(new Date(p.publishAt!)), body: p.body }));

const MUMBAI = historicalSeriesId('ppRaffia', 'Mumbai');
const CIF = historicalSeriesId('ppRaffia', 'CIF NS');
const lineOf = (id: string) => lines.find((l) => l.id === id)!;
/** `lines` with one line's value on a date replaced. */
const withValue = (id: string, date: string, value: number): PriceLine[] =>
  lines.map((l) => (l.id === id ? { ...l, points: l.points.map((p) => (p.date === date ? { ...p, value } : p)) } : l));

describe('the consistency check on the demo data', () => {
  it('finds nothing: no pair of one basis disagrees, no link of the model is broken, every quoted price is the data of its date', () => {
    expect(quoted.skipped).toEqual([]);
    const report = checkConsistency({ lines, relations, posts: checked(quoted.posts) });
    expect(report.findings).toEqual([]);
    // It did look: every link of the model on every date, every quote of the posts.
    expect(report.relationValues).toBeGreaterThan(25_000);
    expect(report.quotes).toBeGreaterThan(40);
  });

  it('fills every template of the seed posts (none left for a reader to see)', () => {
    for (const post of quoted.posts) for (const text of [post.title, post.summary, post.body]) expect(text, post.id).not.toMatch(/\{\{/);
    const week47 = quoted.posts.find((p) => p.id === '2026-11-18-pp-prices-mumbai-week-47')!;
    // The post quotes Mumbai ex-works as it stood on 18 November: the Monday sheet of 16 November.
    const monday = valueAsOf(lineOf(MUMBAI), '2026-11-18')!;
    expect(monday.date).toBe('2026-11-16');
    expect(week47.body).toContain(`<data value="${MUMBAI}@2026-11-18">₹${monday.value.toFixed(2)}/kg</data>`);
    expect(week47.summary).toContain(`₹${monday.value.toFixed(2)}/kg`);
  });

  it('makes the contradictions a trader found impossible', () => {
    const date = lineOf(MUMBAI).points.at(-1)!.date;
    // City-wise Mumbai against Mumbai ex-works: the margin, the same every week.
    const city = valueAsOf(lineOf(cityLineId('mumbai', 'ppRaffia')), date)!;
    expect(city.date).toBe(date);
    expect(city.value - valueAsOf(lineOf(MUMBAI), date)!.value).toBe(1);
    // Global-bazaar India against CIF Nhava Sheva.
    const offer = lineOf(offerLineId('India', 'ppRaffia')).points.at(-1)!;
    expect(offer.value - valueAsOf(lineOf(CIF), offer.date)!.value).toBe(15);
    // The customs rate moves only on notification dates.
    const customs = lineOf(CUSTOMS_LINE_ID);
    expect(customs.points.length).toBeLessThan(lineOf('fx.usdinr').points.length / 9);
  });
});

describe('planted contradictions are found', () => {
  it('two prices of one product on one basis that differ on a date', () => {
    const cif = lineOf(CIF);
    const twin: PriceLine = { ...cif, id: 'planted.cif', label: 'PP Raffia · CIF Nhava Sheva (a second source)', points: cif.points.map((p, i) => (i === cif.points.length - 1 ? { ...p, value: p.value + 30 } : p)) };
    expect(sameBasisGroups([...lines, twin]).map((g) => g.map((l) => l.id))).toEqual([[CIF, 'planted.cif']]);
    const report = checkConsistency({ lines: [...lines, twin] });
    expect(report.pairs).toBe(1);
    expect(report.pairDates).toBe(cif.points.length);
    expect(report.findings).toEqual([expect.objectContaining({ kind: 'same-basis', a: CIF, b: 'planted.cif', date: cif.points.at(-1)!.date, bValue: cif.points.at(-1)!.value + 30 })]);
  });

  it('city-wise Mumbai half a rupee off Mumbai ex-works (109 against 109.5)', () => {
    const date = lineOf(MUMBAI).points.at(-1)!.date;
    const mumbai = valueAsOf(lineOf(MUMBAI), date)!.value;
    const report = checkConsistency({ lines: withValue(cityLineId('mumbai', 'ppRaffia'), date, mumbai - 0.5), relations });
    expect(report.findings).toEqual([expect.objectContaining({ kind: 'relation', line: cityLineId('mumbai', 'ppRaffia'), date, value: mumbai - 0.5, expected: mumbai + 1 })]);
  });

  it('global-bazaar India away from CIF Nhava Sheva, and a CIF price the domestic price no longer follows', () => {
    const offerDate = lineOf(offerLineId('India', 'ppRaffia')).points.at(-1)!.date;
    const cifDate = lineOf(CIF).points.at(-1)!.date;
    const report = checkConsistency({ lines: withValue(CIF, cifDate, 1085), relations });
    const kinds = report.findings.map((f) => (f.kind === 'relation' ? f.line : f.kind));
    // The offer after that Friday now disagrees with it, and so does Mumbai ex-works on the Monday after.
    expect(kinds).toContain(MUMBAI);
    if (offerDate >= cifDate) expect(kinds).toContain(offerLineId('India', 'ppRaffia'));
  });

  it('a news price that is not the data of its date, and one dated after its post', () => {
    const post = quoted.posts.find((p) => p.id === '2026-11-18-pp-prices-mumbai-week-47')!;
    const [first] = readQuotes(post.body);
    const edited = post.body.replace(`>${first!.text}<`, '>₹101.50/kg<');
    const future = `${post.body}\n\n<data value="${MUMBAI}@2026-11-23">₹1.00/kg</data>`;
    const report = checkConsistency({
      lines,
      posts: [
        { id: 'edited', date: '2026-11-18', body: edited },
        { id: 'future', date: '2026-11-18', body: future },
        { id: 'unknown', date: '2026-11-18', body: '<data value="historical.nothing.mumbai@2026-11-18">₹1.00/kg</data>' },
      ],
    });
    expect(report.findings).toEqual([
      expect.objectContaining({ kind: 'news', post: 'edited', quoted: '₹101.50/kg', expected: first!.text }),
      expect.objectContaining({ kind: 'news', post: 'future', quote: `${MUMBAI}@2026-11-23` }),
      expect.objectContaining({ kind: 'news', post: 'unknown' }),
    ]);
  });

  it('a range, a producer’s list price and a revision that are not the data’s, and a revision that skips a list', () => {
    const hmel = lineOf(listPriceLineId('hmel.ppRaffia.bathinda'));
    const offer = lineOf(offerLineId('India', 'ppRaffia'));
    const lookup = (id: string) => lines.find((l) => l.id === id);
    const date = '2026-11-18';
    const body = resolveQuotes(`{{price ${offer.id}}}; {{price ${hmel.id}}}; {{revision ${hmel.id}}}`, date, lookup, true).text;
    const [range, list, revision] = readQuotes(body);
    // As filled, all three are the data: the offer as a range, the revision between the last two lists.
    expect(range!.text).toMatch(/^US\$[\d,]+–[\d,]+\/t$/);
    const upTo = hmel.points.filter((p) => p.date <= date);
    expect(revision!.ref).toBe(`${hmel.id}@${upTo.at(-2)!.date}..${upTo.at(-1)!.date}`);
    expect(checkConsistency({ lines, posts: [{ id: 'as-filled', date, body }] }).findings).toEqual([]);
    // A range read as its mid, a list price off by a rupee, a revision with the wrong sign, a "revision" over three lists.
    const mid = body.replace(`>${range!.text}<`, `>US$${valueAsOf(offer, date)!.value.toLocaleString('en-IN')}/t<`);
    const offList = body.replace(`>${list!.text}<`, '>₹1.00/kg<');
    const flipped = body.replace(`>${revision!.text}<`, `>${revision!.text.startsWith('+') ? '−' : '+'}${revision!.text.replace(/^[+−]/, '')}<`);
    const skipped = `<data value="${hmel.id}@${upTo.at(-3)!.date}..${upTo.at(-1)!.date}">${quoteText(hmel, { from: upTo.at(-3)!.date, date: upTo.at(-1)!.date })}</data>`;
    const report = checkConsistency({
      lines,
      posts: [
        { id: 'mid', date, body: mid },
        { id: 'list', date, body: offList },
        { id: 'flipped', date, body: flipped },
        { id: 'skipped', date, body: skipped },
      ],
    });
    expect(report.findings.map((f) => (f.kind === 'news' ? [f.post, f.quote] : f.kind))).toEqual([
      ['mid', range!.ref],
      ['list', list!.ref],
      ['flipped', revision!.ref],
      ['skipped', `${hmel.id}@${upTo.at(-3)!.date}..${upTo.at(-1)!.date}`],
    ]);
  });

  it('refuses a revision where the producer has made none by the post’s date, or given dates', () => {
    const lookup = (id: string) => lines.find((l) => l.id === id);
    const hmel = listPriceLineId('hmel.ppRaffia.bathinda');
    const first = lineOf(hmel).points[1]!.date;
    expect(resolveQuotes(`{{revision ${hmel}}}`, first, lookup, true).problems).toEqual([]);
    expect(resolveQuotes(`{{revision ${hmel}}}`, lineOf(hmel).points[0]!.date, lookup, true).problems).toHaveLength(1);
    expect(resolveQuotes(`{{revision ${hmel} 2026-11-02}}`, '2026-11-18', lookup, true).problems).toHaveLength(1);
  });

  it('refuses to fill a template dated after the post, or naming no price', () => {
    const lookup = (id: string) => lines.find((l) => l.id === id);
    expect(resolveQuotes(`{{price ${MUMBAI} 2026-11-30}}`, '2026-11-18', lookup, true).problems).toHaveLength(1);
    expect(resolveQuotes('{{price nothing.here}}', '2026-11-18', lookup, true).problems).toHaveLength(1);
    expect(resolveQuotes(`{{change ${MUMBAI}}}`, '2026-11-18', lookup, true).problems).toHaveLength(1);
  });
});
