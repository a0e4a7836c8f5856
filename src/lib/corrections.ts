/**
 * Corrected prices, read from the audit log (pure; issue 20). Every admin price edit is an
 * audit entry with the value before and after (docs/admin.md): a change of a price that was
 * already published is a correction. A corrected price is shown with the day it was corrected
 * and the value it had before, so a reader who saw the earlier number knows it moved and why
 * two copies of a sheet differ.
 *
 * Which entries are corrections: `price.change` (a series' point, target `series:{id}`),
 * `citywise.change` (a row of a city's sheet, `citywise:{city}`) and `offers.change` (a
 * country's offers of a date, `offers:{country}`, compared grade by grade). Adding a price is a
 * publication, not a correction; a deleted price is not shown, so it carries no mark.
 */
import { isoDateOf, toDisplayDate, type IsoDate } from './dates.ts';
import { formatPrice, type Quoting } from './numbers.ts';

/** What this module reads of an audit entry (src/server/store/audit.ts writes them). */
export interface AuditFacts {
  /** ISO instant. */
  readonly at: string;
  readonly action: string;
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
}

export interface Correction {
  /** The price's date. */
  readonly date: IsoDate;
  /** The city sheet's grade key, or the offer's `group/grade`; empty for a series point. */
  readonly item: string;
  /** The value now. */
  readonly value: number;
  /** The value just before the latest correction. */
  readonly previous: number;
  /** The value first published, before any correction (the same as `previous` after one). */
  readonly first: number;
  /** India's calendar day of the latest correction. */
  readonly correctedOn: IsoDate;
  /** ISO instant of the latest correction. */
  readonly correctedAt: string;
  /** How many times it was corrected. */
  readonly times: number;
}

/** The key of a corrected price among others of the same target: `2026-11-16` or `2026-11-16|ppRaffia`. */
export const correctionKey = (date: IsoDate, item = ''): string => (item ? `${date}|${item}` : date);

interface Change {
  readonly date: IsoDate;
  readonly item: string;
  readonly before: number;
  readonly after: number;
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The price changes one entry records (none for anything that is not a correction). */
function changesOf(entry: AuditFacts): Change[] {
  const { before, after } = entry;
  if (!before || !after) return [];
  const date = text(after['date']);
  if (!date || text(before['date']) !== date) return [];
  if (entry.action === 'price.change' || entry.action === 'citywise.change') {
    const was = num(before['value']);
    const now = num(after['value']);
    const item = entry.action === 'citywise.change' ? text(after['grade']) : '';
    if (was === null || now === null || item === null || was === now) return [];
    return [{ date, item, before: was, after: now }];
  }
  if (entry.action === 'offers.change') {
    const was = before['data'];
    const now = after['data'];
    if (!was || !now || typeof was !== 'object' || typeof now !== 'object') return [];
    const out: Change[] = [];
    for (const [group, grades] of Object.entries(now as Record<string, unknown>)) {
      const old = (was as Record<string, unknown>)[group];
      if (!grades || typeof grades !== 'object' || !old || typeof old !== 'object') continue;
      for (const [grade, value] of Object.entries(grades as Record<string, unknown>)) {
        const v = num(value);
        const w = num((old as Record<string, unknown>)[grade]);
        if (v !== null && w !== null && v !== w) out.push({ date, item: `${group}/${grade}`, before: w, after: v });
      }
    }
    return out;
  }
  return [];
}

/**
 * The corrections among audit entries of one target, by `correctionKey`. Entries may come in
 * any order; the latest change of a price decides its value and day, the earliest its first
 * published value.
 */
export function correctionsOf(entries: readonly AuditFacts[]): Map<string, Correction> {
  const byKey = new Map<string, Correction>();
  for (const entry of [...entries].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))) {
    for (const change of changesOf(entry)) {
      const key = correctionKey(change.date, change.item);
      const earlier = byKey.get(key);
      byKey.set(key, {
        date: change.date,
        item: change.item,
        value: change.after,
        previous: change.before,
        first: earlier?.first ?? change.before,
        correctedOn: isoDateOf(new Date(entry.at)),
        correctedAt: entry.at,
        times: (earlier?.times ?? 0) + 1,
      });
    }
  }
  return byKey;
}

/**
 * The corrections that still describe the price shown: its value now is the corrected one (a
 * price written again since, by an import, has no known earlier value and is left unmarked).
 */
export function stillCurrent(corrections: ReadonlyMap<string, Correction>, valueNow: (correction: Correction) => number | null | undefined): Correction[] {
  return [...corrections.values()].filter((c) => valueNow(c) === c.value).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.item < b.item ? -1 : 1));
}

/** Corrections of series points, matched against the points shown. */
export const pointCorrections = (corrections: ReadonlyMap<string, Correction>, points: readonly { readonly date: IsoDate; readonly value: number }[]): Correction[] => {
  const values = new Map(points.map((p) => [p.date, p.value]));
  return stillCurrent(corrections, (c) => (c.item === '' ? values.get(c.date) : undefined));
};

/** "corrected on 17 Nov 2026, was 615.00" (and the first published value when corrected more than once). */
export function correctionWords(correction: Correction, quoting: Quoting): string {
  const was = `was ${formatPrice(correction.previous, quoting)}`;
  const first = correction.times > 1 && correction.first !== correction.previous ? `; first published ${formatPrice(correction.first, quoting)}` : '';
  return `corrected on ${toDisplayDate(correction.correctedOn)}, ${was}${first}`;
}
