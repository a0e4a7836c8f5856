/**
 * The data feed's meter, per instance: requests of a key are taken from the store in leases (a
 * tenth of its rate per minute, at most LEASE_MAX) and counted down here, so a keyed request
 * costs a store transaction only once per lease instead of every time. The store still counts
 * for every instance together: a lease is granted only from what the minute and the month have
 * left, so N instances never let more than the rate through; an instance may hold at most one
 * lease of a key unused while another is refused (and gives its rest back with its next lease).
 * docs/decisions.md, "Data feed", says why and what the headers then mean.
 */
import { meterReading, RATE_WINDOW_MS, rateWindowOf, usageDayOf, type ApiKeyRecord, type ApiKeyStore, type LeaseReading, type MeterReading } from '../store/apiKeys.ts';

/** The start of the rate window (a whole minute, as `rateWindowOf`) of `now`, in milliseconds. */
const windowStartMsOf = (now: Date): number => Math.floor(now.getTime() / RATE_WINDOW_MS) * RATE_WINDOW_MS;

/** The largest lease: a key with a huge rate still goes back to the store now and then (its last use, its usage). */
export const LEASE_MAX = 1_000;

/** How many requests of `key` an instance takes at once: a tenth of its rate (1 for a rate under 20). */
export const leaseSizeOf = (key: Pick<ApiKeyRecord, 'ratePerMinute'>): number => Math.max(1, Math.min(LEASE_MAX, Math.floor(key.ratePerMinute / 10)));

interface Lease {
  readonly windowStart: string;
  /** The same minute in milliseconds: compared at every request (cheaper than the ISO text). */
  readonly windowStartMs: number;
  readonly day: string;
  readonly granted: number;
  used: number;
  /** What the store had left after granting it (every instance's counts). */
  readonly rateLeft: number;
  readonly quotaLeft: number;
  /** The key's limits when it was granted: a changed key takes a new lease. */
  readonly ratePerMinute: number;
  readonly monthlyQuota: number;
}

export interface MeterLeases {
  /** Counts one request of `key` at `now`: from this instance's lease, or a new lease from the store. */
  take(key: ApiKeyRecord, now: Date): Promise<MeterReading>;
  /** Gives the unused rest of every lease back to the store (a clean stop), so the counts are exact. */
  release(now: Date): Promise<void>;
}

export function createMeterLeases(store: Pick<ApiKeyStore, 'meterApiKey'>): MeterLeases {
  const leases = new Map<string, Lease>();
  /** The key of each lease, to give its rest back (release) without a look-up. */
  const keys = new Map<string, ApiKeyRecord>();
  /** One lease asked for per key at a time: the requests meanwhile wait for it. */
  const asking = new Map<string, Promise<LeaseReading>>();

  const usable = (lease: Lease | undefined, key: ApiKeyRecord, now: Date): lease is Lease =>
    lease !== undefined && lease.used < lease.granted && lease.windowStartMs === windowStartMsOf(now) && lease.ratePerMinute === key.ratePerMinute && lease.monthlyQuota === key.monthlyQuota;

  async function ask(key: ApiKeyRecord, now: Date): Promise<LeaseReading> {
    const previous = leases.get(key.id);
    const giveBack = previous && previous.used < previous.granted ? { windowStart: previous.windowStart, day: previous.day, unused: previous.granted - previous.used } : null;
    leases.delete(key.id);
    const reading = await store.meterApiKey(key, now, { want: leaseSizeOf(key), giveBack });
    if (reading.granted > 0) {
      keys.set(key.id, key);
      // The first of the granted requests is the one that asked; the rest wait here.
      leases.set(key.id, {
        windowStart: rateWindowOf(now),
        windowStartMs: windowStartMsOf(now),
        day: usageDayOf(now),
        granted: reading.granted,
        used: 1,
        rateLeft: reading.rate.remaining,
        quotaLeft: reading.quota.remaining,
        ratePerMinute: key.ratePerMinute,
        monthlyQuota: key.monthlyQuota,
      });
    }
    return reading;
  }

  return {
    async take(key, now) {
      for (;;) {
        const lease = leases.get(key.id);
        if (usable(lease, key, now)) {
          lease.used += 1;
          const unused = lease.granted - lease.used;
          return meterReading(key, null, lease.rateLeft + unused, lease.quotaLeft + unused, now);
        }
        const pending = asking.get(key.id);
        if (pending) {
          // Another request of this key is asking: share its lease (or its refusal's cause) after it.
          await pending.catch(() => undefined);
          continue;
        }
        const asked = ask(key, now).finally(() => asking.delete(key.id));
        asking.set(key.id, asked);
        const reading = await asked;
        if (reading.granted === 0) return reading;
        // As if this request was counted alone: the rest of the lease is not used yet.
        const unused = reading.granted - 1;
        return meterReading(key, null, reading.rate.remaining + unused, reading.quota.remaining + unused, now);
      }
    },

    async release(now) {
      await Promise.allSettled([...asking.values()]);
      const rests = [...leases].filter(([, lease]) => lease.used < lease.granted);
      leases.clear();
      await Promise.all(
        rests.map(([id, lease]) =>
          store.meterApiKey(keys.get(id)!, now, { want: 0, giveBack: { windowStart: lease.windowStart, day: lease.day, unused: lease.granted - lease.used } }),
        ),
      );
      keys.clear();
    },
  };
}

/** Each store has its own leases: a lease of one store says nothing of another's counts. */
const leasesByStore = new WeakMap<object, MeterLeases>();
export function metersOf(store: Pick<ApiKeyStore, 'meterApiKey'>): MeterLeases {
  let leases = leasesByStore.get(store);
  if (!leases) leasesByStore.set(store, (leases = createMeterLeases(store)));
  return leases;
}
