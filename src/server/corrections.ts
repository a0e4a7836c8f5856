/**
 * Reads the corrections of a price target (`series:{id}`, `citywise:{city}`, `offers:{country}`)
 * from the audit log, for the data screens and `/api/series` (src/lib/corrections.ts says what a
 * correction is). The log is read newest first, a page at a time, back to the first entry made
 * before the range shown (a correction is made on or after the day of the price it corrects),
 * and at most MAX_PAGES pages. A result is kept while the store's write version is unchanged and
 * for at most a minute (writes of another instance), as the prepared data answers are.
 */
import { correctionsOf, pointCorrections, type Correction } from '../lib/corrections.ts';
import { addDays, type IsoDate } from '../lib/dates.ts';
import type { AuditStore } from './store/audit.ts';
import { seriesTarget } from './store/priceAdmin.ts';
import type { PriceStore } from './store/prices.ts';

export const AUDIT_PAGE = 200;
/** 2,000 entries: about eight years of one series' daily entries, or a year of every sheet edit of a city. */
export const MAX_PAGES = 10;
const TTL_MS = 60_000;
const MAX_KEPT = 1_000;

export type CorrectionReader = Pick<AuditStore, 'listAudit'> & Pick<PriceStore, 'version'>;

interface Kept {
  readonly version: number;
  readonly expires: number;
  readonly value: Promise<Map<string, Correction>>;
}
const kept = new Map<string, Kept>();

async function read(store: CorrectionReader, target: string, since: IsoDate): Promise<Map<string, Correction>> {
  // An entry of the evening before `since` (UTC) may already be `since` in India.
  const stop = addDays(since, -1);
  const entries = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { entries: batch } = await store.listAudit({ target, page, pageSize: AUDIT_PAGE });
    entries.push(...batch);
    const oldest = batch.at(-1);
    if (batch.length < AUDIT_PAGE || !oldest || oldest.at.slice(0, 10) < stop) break;
  }
  return correctionsOf(entries);
}

/** The corrections of `target` made since `since` (India's date), by correction key. */
export function readCorrections(store: CorrectionReader, target: string, since: IsoDate, now: number = Date.now()): Promise<Map<string, Correction>> {
  const key = `${target}|${since}`;
  const version = store.version();
  const hit = kept.get(key);
  if (hit && hit.version === version && hit.expires > now) return hit.value;
  if (kept.size >= MAX_KEPT) kept.clear();
  const value = read(store, target, since);
  kept.set(key, { version, expires: now + TTL_MS, value });
  // A failed read is not kept: the next request asks again.
  void value.catch(() => kept.delete(key));
  return value;
}

/**
 * The corrected points of a series inside a range, checked against the points stored now. The
 * points are read only when the log has a correction in the range (most series have none).
 */
export async function seriesCorrections(store: CorrectionReader & Pick<PriceStore, 'points'>, seriesId: string, range: { readonly from: IsoDate; readonly to: IsoDate }): Promise<Correction[]> {
  const all = await readCorrections(store, seriesTarget(seriesId), range.from);
  const inRange = new Map([...all].filter(([, c]) => c.item === '' && c.date >= range.from && c.date <= range.to));
  if (inRange.size === 0) return [];
  return pointCorrections(inRange, await store.points(seriesId, range));
}
