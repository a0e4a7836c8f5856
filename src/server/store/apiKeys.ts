/**
 * API keys of the data feed and their metering (the Store port's part; no I/O). A key belongs to
 * one user and acts for them on `/api/v1/**`; the key itself is shown once and never stored:
 * only its SHA-256 (hex) is kept, under the key's public id (the visible part of the key, so
 * a request finds its record with one read). Each key has one meter (its request-rate window,
 * its month's count, its last use) and one usage record per day (what the key page and the
 * admin's user page show). Counting happens in one store transaction per request, so every
 * instance of the site counts against the same numbers (docs/decisions.md, "Data feed").
 */

import { isoDateOf } from '../../lib/dates.ts';
import type { AuditActor } from './audit.ts';

export interface ApiKeyRecord {
  /** The key's public id: 12 lower-case letters and digits, the part after `pik_` (shown). */
  readonly id: string;
  readonly ownerUid: string;
  /** What the owner called it ("Purchase sheet"). */
  readonly name: string;
  /** SHA-256 of the whole key, hex. */
  readonly hash: string;
  /** ISO instant. */
  readonly createdAt: string;
  /** The owner allowed this key in a URL (`?key=`), for spreadsheet functions that cannot send headers; CSV only. */
  readonly urlKey: boolean;
  /** Requests per minute this key may make. */
  readonly ratePerMinute: number;
  /** Requests per calendar month (India) this key may make. */
  readonly monthlyQuota: number;
}

/** A key's running counts: the current minute window and the current month. */
export interface ApiKeyMeter {
  readonly keyId: string;
  readonly ownerUid: string;
  /** ISO instant the current rate window began (a whole minute). */
  readonly windowStart: string;
  readonly windowCount: number;
  /** `YYYY-MM` (India). */
  readonly month: string;
  readonly monthCount: number;
  /** ISO instant of the last counted request. */
  readonly lastUsedAt: string;
}

/** One key's requests on one day (India): the ones answered and the ones refused by a limit. */
export interface ApiKeyUsageDay {
  /** `{keyId}~{day}`. */
  readonly id: string;
  readonly keyId: string;
  readonly ownerUid: string;
  /** `YYYY-MM-DD` (India). */
  readonly day: string;
  readonly requests: number;
  readonly refused: number;
}

/** A user keeps at most this many keys. */
export const MAX_API_KEYS = 5;
/** A new key's limits (docs/decisions.md, "Data feed"). */
export const DEFAULT_RATE_PER_MINUTE = 60;
export const DEFAULT_MONTHLY_QUOTA = 50_000;

/** A key's rate window: a whole minute of the clock. */
export const RATE_WINDOW_MS = 60_000;
const WINDOW_MS = RATE_WINDOW_MS;

export const usageDayId = (keyId: string, day: string): string => `${keyId}~${day}`;

/** What a metered request was told: allowed or not, and the numbers for the `X-RateLimit-*` headers. */
export interface MeterReading {
  readonly allowed: boolean;
  /** Which limit refused it. */
  readonly limit: 'rate' | 'quota' | null;
  readonly rate: { readonly limit: number; readonly remaining: number; readonly resetSeconds: number };
  readonly quota: { readonly limit: number; readonly remaining: number; readonly resetSeconds: number };
  /** Seconds until a refused request may succeed (Retry-After). */
  readonly retryAfterSeconds: number;
}

/**
 * A lease: requests of a key's current minute an instance takes from the store at once and
 * counts down in memory (src/server/feed/meterLeases.ts), so that not every request is a store
 * transaction. Taken requests count as made; the part an instance did not use is given back with
 * its next lease (`MeterLease.giveBack`).
 */
export interface MeterLease {
  /** How many requests to take; fewer are granted when the rate or the quota has little left; 0 only gives back. */
  readonly want: number;
  /** The unused rest of this instance's previous lease of the key: taken off the counts it was added to. */
  readonly giveBack: { readonly windowStart: string; readonly day: string; readonly unused: number } | null;
}

/** A reading when a lease was asked for: how many requests were granted (0 when refused). */
export type LeaseReading = MeterReading & { readonly granted: number };

export type MeterResult = LeaseReading & { readonly meter: ApiKeyMeter };

/** Days and months are India's, as the trader reads them (IST is UTC+5:30 all year). */
const IST_OFFSET_MS = 330 * 60_000;
export const usageDayOf = (now: Date): string => isoDateOf(now);
const monthOf = (now: Date): string => isoDateOf(now).slice(0, 7);
// India's months begin at a whole minute of UTC (IST is UTC+5:30), so the next one is the same
// for every instant of a minute: worked out once per minute, not at every metered request.
let monthStartMemo: { readonly minute: number; readonly next: number } | null = null;
function nextMonthStart(now: Date): number {
  const minute = Math.floor(now.getTime() / 60_000);
  if (monthStartMemo?.minute === minute) return monthStartMemo.next;
  const [year, month] = monthOf(now).split('-').map(Number) as [number, number];
  const next = Date.UTC(year, month, 1) - IST_OFFSET_MS;
  monthStartMemo = { minute, next };
  return next;
}
/** The ISO instant the rate window of `now` began (a whole minute). */
export const rateWindowOf = (now: Date): string => new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS).toISOString();

/** The reading for a key with `rateLeft` and `quotaLeft` requests left (after this one), at `now`. */
export function meterReading(key: Pick<ApiKeyRecord, 'ratePerMinute' | 'monthlyQuota'>, limit: MeterReading['limit'], rateLeft: number, quotaLeft: number, now: Date): MeterReading {
  const windowStartMs = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  const rateReset = Math.max(1, Math.ceil((windowStartMs + WINDOW_MS - now.getTime()) / 1000));
  const quotaReset = Math.max(1, Math.ceil((nextMonthStart(now) - now.getTime()) / 1000));
  return {
    allowed: limit === null,
    limit,
    rate: { limit: key.ratePerMinute, remaining: Math.max(0, rateLeft), resetSeconds: rateReset },
    quota: { limit: key.monthlyQuota, remaining: Math.max(0, quotaLeft), resetSeconds: quotaReset },
    retryAfterSeconds: limit === 'quota' ? quotaReset : limit === 'rate' ? rateReset : 0,
  };
}

/**
 * One request (or a lease of several) against a key's meter at `now`: the meter after it
 * (counted only when granted, less what an earlier lease gives back) and what to tell the caller.
 */
export function meterRequest(key: Pick<ApiKeyRecord, 'id' | 'ownerUid' | 'ratePerMinute' | 'monthlyQuota'>, meter: ApiKeyMeter | null, now: Date, lease: MeterLease = { want: 1, giveBack: null }): MeterResult {
  const windowStart = rateWindowOf(now);
  const month = monthOf(now);
  const back = lease.giveBack;
  // An unused rest counts no more: off the month it was taken in, and off the minute if it is this one.
  const backFromWindow = back && back.windowStart === windowStart ? back.unused : 0;
  const backFromMonth = back && monthOf(new Date(back.windowStart)) === month ? back.unused : 0;
  const windowCount = Math.max(0, (meter?.windowStart === windowStart ? meter.windowCount : 0) - backFromWindow);
  const monthCount = Math.max(0, (meter?.month === month ? meter.monthCount : 0) - backFromMonth);
  const limit = monthCount >= key.monthlyQuota ? 'quota' : windowCount >= key.ratePerMinute ? 'rate' : null;
  // At most half of what is left: near a limit leases shrink to one, so an instance holds little
  // unused while another is refused. A want of 0 only gives back.
  const left = Math.min(key.ratePerMinute - windowCount, key.monthlyQuota - monthCount);
  const granted = limit === null && lease.want > 0 ? Math.min(lease.want, Math.max(1, Math.floor(left / 2))) : 0;
  return {
    ...meterReading(key, limit, key.ratePerMinute - windowCount - granted, key.monthlyQuota - monthCount - granted, now),
    granted,
    meter: {
      keyId: key.id,
      ownerUid: key.ownerUid,
      windowStart,
      windowCount: windowCount + granted,
      month,
      monthCount: monthCount + granted,
      lastUsedAt: granted > 0 ? now.toISOString() : (meter?.lastUsedAt ?? now.toISOString()),
    },
  };
}

/** What the audit trail says of a key: never the key, never its hash. */
export const auditedKey = (key: ApiKeyRecord) => ({ id: key.id, ownerUid: key.ownerUid, name: key.name, urlKey: key.urlKey, ratePerMinute: key.ratePerMinute, monthlyQuota: key.monthlyQuota });

/** A key as its owner's list shows it: the record without its hash, with its last use and this month's count. */
export interface ApiKeyListing {
  readonly key: ApiKeyRecord;
  readonly lastUsedAt: string | null;
  readonly month: string;
  readonly monthCount: number;
}

export interface ApiKeyStore {
  /** Creates the key unless its owner has MAX_API_KEYS already ('limit'), audited (never its hash). One transaction. */
  createApiKey(key: ApiKeyRecord, actor: AuditActor): Promise<'created' | 'limit'>;
  /** An owner's keys, oldest first, with their meters. */
  listApiKeys(ownerUid: string, now: Date): Promise<ApiKeyListing[]>;
  /** The key of a public id (a request's look-up: one read), or null. */
  findApiKey(id: string): Promise<ApiKeyRecord | null>;
  /** Deletes one of the owner's keys (its usage stays, under its id); false when the owner has no key of that id. */
  deleteApiKey(ownerUid: string, id: string, actor: AuditActor, now: Date): Promise<ApiKeyRecord | null>;
  /**
   * Counts one request of a key, or takes a lease of several (giving back the unused rest of the
   * previous one), in one transaction with every other instance: its meter and the day's usage
   * (granted requests count as made; a refusal counts as refused).
   */
  meterApiKey(key: ApiKeyRecord, now: Date, lease?: MeterLease): Promise<LeaseReading>;
  /** An owner's usage per day and key, newest day first, from `fromDay` (YYYY-MM-DD). */
  apiKeyUsage(ownerUid: string, fromDay: string): Promise<ApiKeyUsageDay[]>;
}
