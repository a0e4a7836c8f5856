/**
 * Prices quoted in news posts, tied to the data (issue 20: a post says what the data said on
 * its date). A seed post (src/content/news/) writes a price as a template, and the seed fills it
 * from the prices of the post's date:
 *
 *   {{price historical.ppRaffia.mumbai}}              the line's value as of the post's date
 *   {{price offer.India.ppRaffia 2026-11-02}}         … as of another date (not after the post's)
 *   {{change historical.ppRaffia.mumbai 2026-11-09}}  the move from that date to the post's date
 *   {{change LINE FROM TO}}                           the move between two dates
 *   {{revision list.hmel.ppRaffia.bathinda}}          a producer's latest revision by the post's date
 *
 * A price is written as the market quotes it: a range where the line holds one ("US$1,005–1,025/t",
 * the CIF offers, city-wise sheets and CIF assessments), a single number otherwise. A revision is
 * the change between a list line's last two lists on or before the post's date, marked as that
 * change (`LINE@PREVIOUS..EFFECTIVE`), so it is one the producer-price data has, never a typed one.
 *
 * In the body the result is marked `<data value="LINE@DATE">₹111.00/kg</data>` (a change:
 * `LINE@FROM..TO`), the HTML element for a machine-readable value, so the consistency check
 * (src/lib/consistency.ts) can find every quoted price in a stored post and compare it with
 * the data, whoever edited the text since. Titles and summaries take the plain text. Pure.
 */
import { parseIsoDate, type IsoDate } from './dates.ts';
import { priceValue, priceWithUnit, quoteWithUnit } from './numbers.ts';
import { valueAsOf, type PriceLine } from './priceLines.ts';

export interface Quote {
  /** `LINE@DATE` or `LINE@FROM..TO`, as marked. */
  readonly ref: string;
  readonly line: string;
  /** The price's date; for a change, the later one. */
  readonly date: IsoDate;
  /** A change's earlier date; absent for a price. */
  readonly from?: IsoDate | undefined;
  /** The text the reader sees. */
  readonly text: string;
}

const QUOTE_MARK = /<data value="([A-Za-z0-9._-]+)@(\d{4}-\d{2}-\d{2})(?:\.\.(\d{4}-\d{2}-\d{2}))?">([^<]*)<\/data>/g;

/** Every marked quote in a body, in order. */
export function readQuotes(body: string): Quote[] {
  return [...body.matchAll(QUOTE_MARK)].map(([, line, first, second, text]) => ({
    ref: second ? `${line}@${first}..${second}` : `${line}@${first}`,
    line: line!,
    date: second ?? first!,
    from: second ? first : undefined,
    text: text!,
  }));
}

/** What a quote must read from the line's data, or null when the line has nothing by its date(s). */
export function quoteText(line: PriceLine, quote: Pick<Quote, 'date' | 'from'>): string | null {
  const to = valueAsOf(line, quote.date);
  if (!to) return null;
  if (quote.from === undefined) return quoteWithUnit(to, line.basis);
  const from = valueAsOf(line, quote.from);
  if (!from) return null;
  const change = priceValue(to.value, line.basis) - priceValue(from.value, line.basis);
  return `${change > 0 ? '+' : ''}${priceWithUnit(priceValue(change, line.basis), line.basis)}`;
}

/** A line's last two points on or before `date` (a producer list's latest revision), or null with fewer than two. */
export function lastRevision(line: PriceLine, date: IsoDate): { from: IsoDate; date: IsoDate } | null {
  const upTo = line.points.filter((p) => p.date <= date);
  return upTo.length < 2 ? null : { from: upTo.at(-2)!.date, date: upTo.at(-1)!.date };
}

const TEMPLATE = /\{\{\s*(price|change|revision)\s+([A-Za-z0-9._-]+)((?:\s+\d{4}-\d{2}-\d{2}){0,2})\s*\}\}/g;

export interface Resolved {
  readonly text: string;
  /** Templates that could not be filled, with why (the text keeps them as they were). */
  readonly problems: readonly string[];
}

/**
 * Fills the templates of `text` from the lines as they stood on `postDate` (or the dates a
 * template names), marked for the consistency check when `markup` (a body), plain otherwise.
 */
export function resolveQuotes(text: string, postDate: IsoDate, lineOf: (id: string) => PriceLine | undefined, markup: boolean): Resolved {
  const problems: string[] = [];
  const out = text.replace(TEMPLATE, (whole, what: string, lineId: string, datesText: string) => {
    const dates = datesText.trim().split(/\s+/).filter(Boolean);
    if (dates.some((d) => !parseIsoDate(d) || d > postDate)) {
      problems.push(`${whole}: dates must be real and not after the post’s (${postDate})`);
      return whole;
    }
    const line = lineOf(lineId);
    if (!line) {
      problems.push(`${whole}: no price ${lineId}`);
      return whole;
    }
    if (what === 'revision') {
      if (dates.length > 0) {
        problems.push(`${whole}: a revision takes no dates (it is the latest by the post’s date)`);
        return whole;
      }
      if (!lastRevision(line, postDate)) {
        problems.push(`${whole}: no revision on or before ${postDate}`);
        return whole;
      }
    }
    const quote = what === 'price' ? { date: dates[0] ?? postDate } : what === 'revision' ? lastRevision(line, postDate)! : { from: dates[0], date: dates[1] ?? postDate };
    if (what === 'change' && quote.from === undefined) {
      problems.push(`${whole}: a change needs the date it is from`);
      return whole;
    }
    const shown = quoteText(line, quote);
    if (shown === null) {
      problems.push(`${whole}: no data on or before ${quote.date}`);
      return whole;
    }
    if (!markup) return shown;
    const ref = quote.from === undefined ? `${lineId}@${quote.date}` : `${lineId}@${quote.from}..${quote.date}`;
    return `<data value="${ref}">${shown}</data>`;
  });
  return { text: out, problems };
}

/** The line ids the templates of `texts` name (what a seed must read to fill them). */
export function templateLines(texts: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(TEMPLATE)) ids.add(match[2]!);
  return ids;
}
