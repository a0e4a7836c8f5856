/**
 * UserRecordCache (src/server/store/userCache.ts) on a scripted source: the orderings the
 * contract suite cannot force on a real store (a read or a check that overlaps a write), the
 * age limit, the size limit, and what happens when the version cannot be read.
 */
import { describe, expect, it } from 'vitest';
import { UserRecordCache, type UserCacheSource } from '../../src/server/store/userCache.ts';
import type { UserRecord } from '../../src/server/store/users.ts';

const BOUND = 1_000;
const record = (uid: string, plan: string | null = null): UserRecord => ({ uid, displayName: uid, email: null, phone: null, photoURL: null, role: 'user', subscribed: plan !== null, plan, createdAt: '01-01-2026' });

/** A promise with its resolve and reject in hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A store in memory whose reads can be held open; counts what the cache asks. */
function scriptedStore() {
  const records = new Map<string, UserRecord>();
  let version = 0;
  const held = { reads: [] as { uid: string; release: () => void }[], versions: null as ReturnType<typeof deferred<string>> | null, failVersion: false };
  const counts = { reads: 0, versions: 0 };
  let holdNextRead = false;
  const source: UserCacheSource = {
    async readVersion() {
      counts.versions++;
      if (held.failVersion) throw new Error('the store cannot be reached');
      if (held.versions) return held.versions.promise;
      return String(version);
    },
    async readRecord(uid) {
      counts.reads++;
      const value = structuredClone(records.get(uid) ?? null);
      if (holdNextRead) {
        holdNextRead = false;
        const gate = deferred<void>();
        held.reads.push({ uid, release: () => gate.resolve() });
        await gate.promise;
      }
      return value;
    },
  };
  return {
    source,
    counts,
    held,
    /** A write by any process: the record and the users version change. */
    write(value: UserRecord) {
      records.set(value.uid, value);
      version++;
    },
    /** A write that bypasses the version (a console edit). */
    writeQuietly(value: UserRecord) {
      records.set(value.uid, value);
    },
    holdNextRead() {
      holdNextRead = true;
    },
  };
}

function setup(options: { refreshAtMs?: number; maxAgeMs?: number; max?: number } = {}) {
  let t = 0;
  const store = scriptedStore();
  const cache = new UserRecordCache(store.source, { now: () => t, boundMs: BOUND, refreshAtMs: options.refreshAtMs ?? BOUND, ...options });
  return { store, cache, advance: (ms: number) => void (t += ms) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('UserRecordCache', () => {
  it('reads once, then answers from the copy until the bound', async () => {
    const { store, cache, advance } = setup();
    store.write(record('u'));
    expect(await cache.get('u')).toEqual(record('u'));
    expect(await cache.get('u')).toEqual(record('u'));
    advance(BOUND - 1);
    expect(await cache.get('u')).toEqual(record('u'));
    expect(store.counts).toEqual({ reads: 1, versions: 1 });
    advance(1);
    expect(await cache.get('u')).toEqual(record('u'));
    // One version check at the bound; the version did not move, so the copy still answers.
    expect(store.counts).toEqual({ reads: 1, versions: 2 });
  });

  it('does not keep a read that was in flight when a write of this process settled', async () => {
    const { store, cache } = setup();
    store.write(record('u'));
    await cache.get('other'); // the first version check, out of the way
    store.holdNextRead();
    const reading = cache.get('u'); // reads the record before the write below commits
    await flush();
    store.write(record('u', 'Premium'));
    cache.written();
    store.held.reads.shift()!.release();
    expect(await reading).toEqual(record('u')); // what that request read, as it read it…
    expect(await cache.get('u')).toEqual(record('u', 'Premium')); // …but it was not kept
  });

  it('does not keep a read that was in flight when a version check found a change', async () => {
    const { store, cache, advance } = setup();
    store.write(record('u'));
    await cache.get('other');
    advance(BOUND);
    const check = deferred<string>();
    store.held.versions = check;
    const waiting = cache.get('x'); // waits for the check
    await flush();
    store.holdNextRead();
    const reading = cache.get('u', { fresh: true }); // a fresh read overlapping the check
    await flush();
    store.write(record('u', 'Premium'));
    check.resolve('changed');
    store.held.versions = null;
    await waiting;
    store.held.reads.shift()!.release();
    expect(await reading).toEqual(record('u'));
    expect(await cache.get('u')).toEqual(record('u', 'Premium'));
  });

  it('re-reads an entry older than maxAgeMs (a write that bypassed the version)', async () => {
    const { store, cache, advance } = setup({ maxAgeMs: 5 * BOUND });
    store.write(record('u'));
    expect(await cache.get('u')).toEqual(record('u'));
    store.writeQuietly(record('u', 'Premium'));
    advance(5 * BOUND - 1);
    expect(await cache.get('u')).toEqual(record('u'));
    advance(1);
    expect(await cache.get('u')).toEqual(record('u', 'Premium'));
  });

  it('keeps at most `max` records, the least recently used leaving first', async () => {
    const { store, cache } = setup({ max: 2 });
    for (const uid of ['a', 'b', 'c']) store.write(record(uid));
    await cache.get('a');
    await cache.get('b');
    await cache.get('a'); // a is now the most recent
    await cache.get('c'); // b leaves
    expect(cache.size).toBe(2);
    const reads = store.counts.reads;
    await cache.get('a');
    await cache.get('c');
    expect(store.counts.reads).toBe(reads);
    await cache.get('b');
    expect(store.counts.reads).toBe(reads + 1);
  });

  it('past the bound without a readable version, reads the store on every request (as before the cache)', async () => {
    const { store, cache, advance } = setup();
    store.write(record('u'));
    await cache.get('u');
    store.held.failVersion = true;
    advance(BOUND);
    store.write(record('u', 'Premium'));
    expect(await cache.get('u')).toEqual(record('u', 'Premium'));
    store.write(record('u', 'Platinum'));
    expect(await cache.get('u')).toEqual(record('u', 'Platinum'));
    // Back: the first good check drops whatever was kept meanwhile.
    store.held.failVersion = false;
    store.write(record('u', 'Basic'));
    expect(await cache.get('u')).toEqual(record('u', 'Basic'));
  });

  it('a record read that fails fails the request (the caller answers 503)', async () => {
    const { store, cache } = setup();
    store.source.readRecord = async () => {
      throw new Error('the store cannot be reached');
    };
    await expect(cache.get('u')).rejects.toThrow('cannot be reached');
  });

  it('does not make later requests wait for a check that began more than the bound ago', async () => {
    const { store, cache, advance } = setup();
    store.write(record('u'));
    await cache.get('u');
    advance(BOUND);
    const hung = deferred<string>();
    store.held.versions = hung;
    const first = cache.get('u');
    await flush();
    // Joined within the bound of its start: no second check.
    advance(BOUND - 1);
    const second = cache.get('u');
    await flush();
    expect(store.counts.versions).toBe(2);
    // Beyond it, a new check starts and answers.
    store.held.versions = null;
    advance(1);
    store.write(record('u', 'Premium'));
    expect(await cache.get('u')).toEqual(record('u', 'Premium'));
    expect(store.counts.versions).toBe(3);
    hung.resolve('0');
    await Promise.all([first, second]);
  });

  it('starts a background check from refreshAtMs and answers from the copy meanwhile', async () => {
    const { store, cache, advance } = setup({ refreshAtMs: BOUND / 2 });
    store.write(record('u'));
    await cache.get('u');
    advance(BOUND / 2);
    const check = deferred<string>();
    store.held.versions = check;
    expect(await cache.get('u')).toEqual(record('u')); // not waiting for the check
    expect(store.counts.versions).toBe(2);
    store.write(record('u', 'Premium'));
    check.resolve('changed');
    store.held.versions = null;
    await flush();
    expect(await cache.get('u')).toEqual(record('u', 'Premium'));
  });
});
