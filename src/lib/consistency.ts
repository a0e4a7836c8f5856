/**
 * The consistency check (issue 20, `npm run data:check`): no two screens may contradict each
 * other. Pure; it reads price lines (src/lib/priceLines.ts) and posts and reports:
 *
 * - **same basis**: every pair of lines that price the same product on the same basis
 *   (`basisKey`: place, terms, taxes, unit, kind) and carry different values on a date;
 * - **relation**: a line that breaks a stated link to other lines (the demo model's links,
 *   src/lib/demoRelations.ts: city-wise Mumbai is Mumbai ex-works plus the distributors'
 *   margin, global-bazaar India is CIF Nhava Sheva plus the asking premium …);
 * - **news**: every price a post quotes (`<data value="line@date">…</data>`, src/lib/newsQuotes.ts)
 *   that is not what the data said on that date, or that names a date after the post's; a
 *   producer's revision (a change on a `list.` line) must be between two lists in a row.
 */
import { basisKey } from './basis.ts';
import type { IsoDate } from './dates.ts';
import { readQuotes, quoteText } from './newsQuotes.ts';
import { priceValue } from './numbers.ts';
import { LIST_LINE_PREFIX, type PriceLine } from './priceLines.ts';

/** Whether `from` and `to` are two lists in a row of a producer's line: a revision it made. */
const isRevision = (line: PriceLine, from: IsoDate, to: IsoDate): boolean => {
  const i = line.points.findIndex((p) => p.date === from);
  return i >= 0 && line.points[i + 1]?.date === to;
};

export type LineOf = (id: string) => PriceLine | undefined;

/** A stated link: the value `line` must have on a date of its own, from other lines; null where they say nothing. */
export interface Relation {
  /** In words: "city-wise Mumbai = Mumbai ex-works + ₹1.00/kg". */
  readonly name: string;
  readonly line: string;
  readonly expected: (lineOf: LineOf, date: IsoDate) => number | null;
}

export interface CheckedPost {
  readonly id: string;
  /** The post's date (its publication day, IST). */
  readonly date: IsoDate;
  readonly body: string;
}

export type Finding =
  | { readonly kind: 'same-basis'; readonly a: string; readonly b: string; readonly date: IsoDate; readonly aValue: number; readonly bValue: number; readonly message: string }
  | { readonly kind: 'relation'; readonly relation: string; readonly line: string; readonly date: IsoDate; readonly value: number; readonly expected: number; readonly message: string }
  | { readonly kind: 'news'; readonly post: string; readonly quote: string; readonly quoted: string; readonly expected: string | null; readonly message: string };

export interface ConsistencyReport {
  /** Pairs of lines found to share a product and a basis. */
  readonly pairs: number;
  /** Dates compared across those pairs. */
  readonly pairDates: number;
  readonly relationValues: number;
  readonly quotes: number;
  readonly findings: readonly Finding[];
}

/** Lines that price the same product on the same basis, in groups of two or more. */
export function sameBasisGroups(lines: readonly PriceLine[]): PriceLine[][] {
  const groups = new Map<string, PriceLine[]>();
  for (const line of lines) {
    const key = `${line.product}|${basisKey(line.basis)}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

export function checkConsistency(input: { lines: readonly PriceLine[]; relations?: readonly Relation[]; posts?: readonly CheckedPost[] }): ConsistencyReport {
  const findings: Finding[] = [];
  const byId = new Map(input.lines.map((l) => [l.id, l]));
  const lineOf: LineOf = (id) => byId.get(id);
  let pairs = 0;
  let pairDates = 0;
  for (const group of sameBasisGroups(input.lines)) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const [a, b] = [group[i]!, group[j]!];
        pairs++;
        const bOn = new Map(b.points.map((p) => [p.date, p.value]));
        for (const p of a.points) {
          const other = bOn.get(p.date);
          if (other === undefined) continue;
          pairDates++;
          const [aValue, bValue] = [priceValue(p.value, a.basis), priceValue(other, b.basis)];
          if (aValue !== bValue)
            findings.push({ kind: 'same-basis', a: a.id, b: b.id, date: p.date, aValue, bValue, message: `${a.label} is ${aValue} and ${b.label} ${bValue} on ${p.date}, on the same basis` });
        }
      }
    }
  }
  let relationValues = 0;
  for (const relation of input.relations ?? []) {
    const line = byId.get(relation.line);
    if (!line) continue;
    for (const p of line.points) {
      const expected = relation.expected(lineOf, p.date);
      if (expected === null) continue;
      relationValues++;
      const [value, wanted] = [priceValue(p.value, line.basis), priceValue(expected, line.basis)];
      if (value !== wanted)
        findings.push({ kind: 'relation', relation: relation.name, line: line.id, date: p.date, value, expected: wanted, message: `${line.label} is ${value} on ${p.date}; ${relation.name} makes it ${wanted}` });
    }
  }
  let quotes = 0;
  for (const post of input.posts ?? []) {
    for (const quote of readQuotes(post.body)) {
      quotes++;
      const fail = (expected: string | null, why: string) =>
        findings.push({ kind: 'news', post: post.id, quote: quote.ref, quoted: quote.text, expected, message: `post ${post.id} quotes ${JSON.stringify(quote.text)} for ${quote.ref}: ${why}` });
      if (quote.date > post.date) {
        fail(null, `a date after the post’s (${post.date})`);
        continue;
      }
      const line = byId.get(quote.line);
      const expected = line ? quoteText(line, quote) : null;
      if (!line) fail(null, 'no such price');
      else if (expected === null) fail(null, `no data on or before ${quote.date}`);
      else if (expected !== quote.text) fail(expected, `the data of ${quote.date} says ${expected}`);
      else if (quote.from !== undefined && line.id.startsWith(LIST_LINE_PREFIX) && !isRevision(line, quote.from, quote.date))
        fail(null, `the producer revised nothing from ${quote.from} to ${quote.date} (not two lists in a row)`);
    }
  }
  return { pairs, pairDates, relationValues, quotes, findings };
}
