/**
 * The user-record cache contract (`cachedUser`; docs/decisions.md, "User records"), on each
 * backend, with two handles on one database as two server instances hold them: A, whose cache
 * runs on a clock the test moves by hand (so A checks the users version only when the test
 * says), and B, another instance.
 *
 * - Every user write path of A shows in A's copy at once, while A's clock stands still (no
 *   version check could explain it).
 * - B's writes show in A's copy once A's clock has moved by the bound, and not later; before it
 *   A may still serve its copy (the test shows it does, so the cache is really in play).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GrantInput } from '../../src/server/store/payments.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { UserCacheOptions } from '../../src/server/store/userCache.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { backends } from './backends.ts';

const BOUND = 1_000;
const NOW = new Date('2026-11-22T04:30:00.000Z');
const ACTOR = { uid: 'admin-1', email: 'admin@example.test' };

const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});
const grant = (orderId: string): GrantInput => ({ orderId, paymentId: `pay_${orderId}`, signature: `sig_${orderId}`, now: NOW, durationDays: 30 });

/** A monotonic clock that moves only when told. */
function handClock() {
  let t = 5_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe.each(backends)('user-record cache on $name', (backend) => {
  let a: Store;
  let b: Store;
  let clock: ReturnType<typeof handClock>;

  /** A's cache: the test's clock, the bound, and no background check before the bound unless `background`. */
  const aCache = ({ background = false } = {}): UserCacheOptions => ({ now: clock.now, boundMs: BOUND, ...(background ? {} : { refreshAtMs: BOUND }) });

  beforeEach(async () => {
    clock = handClock();
    [a, b] = await backend.openPair({ userCache: aCache() });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });

  /** A's copy holds uid's record, and B then changes it behind A's back: A still answers its copy. */
  async function staleInA(uid: string, extra: Partial<UserRecord> = {}): Promise<void> {
    await b.createUser(record(uid, extra));
    expect(await a.cachedUser(uid)).toEqual(record(uid, extra));
    await b.updateUsersBy('uid', uid, { displayName: 'changed by B' });
    expect((await a.cachedUser(uid))?.displayName).toBe(uid);
  }

  describe("this instance's writes show at once", () => {
    it('createUser: a record created here replaces the copy of "no record"', async () => {
      expect(await a.cachedUser('new')).toBeNull();
      expect(await a.createUser(record('new', { plan: 'Premium', subscribed: true }))).toBe(true);
      expect(await a.cachedUser('new')).toEqual(record('new', { plan: 'Premium', subscribed: true }));
      // A refused create (the record exists) also leaves nothing stale behind.
      await staleInA('dup');
      expect(await a.createUser(record('dup', { displayName: 'again' }))).toBe(false);
      expect((await a.cachedUser('dup'))?.displayName).toBe('changed by B');
    });

    it('updateUsersBy, by uid and by e-mail (the profile, demo accounts, sign-in merges)', async () => {
      await staleInA('p1');
      expect(await a.updateUsersBy('uid', 'p1', { gstin: '27AAPFU0939F1ZV' })).toBe(1);
      expect(await a.cachedUser('p1')).toMatchObject({ displayName: 'changed by B', gstin: '27AAPFU0939F1ZV' });
      await staleInA('p2');
      expect(await a.updateUsersBy('email', 'P2@example.test', { phone: '+919876543210' })).toBe(1);
      expect(await a.cachedUser('p2')).toMatchObject({ displayName: 'changed by B', phone: '+919876543210' });
    });

    it('grantOrder: a plan bought here counts on the next request', async () => {
      await staleInA('buyer');
      await a.createOrder({ id: 'order_1', uid: 'buyer', plan: 'Contract-30', amount: 1_500_000, currency: 'INR', receipt: 'r_1' }, NOW);
      expect((await a.grantOrder(grant('order_1'))).kind).toBe('granted');
      expect(await a.cachedUser('buyer')).toMatchObject({ subscribed: true, plan: 'Contract-30', orderId: 'order_1' });
    });

    it('adminUpdateUser: grant, extend, revoke and role changes by an admin', async () => {
      await staleInA('managed');
      const change = (patch: Partial<UserRecord>) => a.adminUpdateUser({ uid: 'managed', change: () => ({ ok: true, patch }), actor: ACTOR, action: 'user.test', now: NOW });
      expect((await change({ subscribed: true, plan: 'Premium', expiresAt: '2027-01-01T00:00:00.000Z' })).kind).toBe('updated');
      expect(await a.cachedUser('managed')).toMatchObject({ subscribed: true, plan: 'Premium', displayName: 'changed by B' });
      await change({ expiresAt: '2027-06-01T00:00:00.000Z' });
      expect((await a.cachedUser('managed'))?.expiresAt).toBe('2027-06-01T00:00:00.000Z');
      await change({ subscribed: false });
      expect((await a.cachedUser('managed'))?.subscribed).toBe(false);
      await change({ role: 'admin' });
      expect((await a.cachedUser('managed'))?.role).toBe('admin');
    });

    it('importRecords of users (store:copy into a running store)', async () => {
      await staleInA('copied');
      expect(await a.importRecords('users', [record('copied', { plan: 'Platinum', subscribed: true })])).toBe(1);
      expect(await a.cachedUser('copied')).toEqual(record('copied', { plan: 'Platinum', subscribed: true }));
    });
  });

  describe("another instance's writes show within the bound", () => {
    const writesOfB: [string, (uid: string) => Promise<unknown>, Partial<UserRecord>][] = [
      ['a merge (profile)', (uid) => b.updateUsersBy('uid', uid, { gstin: '27AAPFU0939F1ZV' }), { gstin: '27AAPFU0939F1ZV' }],
      [
        'a payment',
        async (uid) => {
          await b.createOrder({ id: `order_${uid}`, uid, plan: 'Contract-30', amount: 1_500_000, currency: 'INR', receipt: `r_${uid}` }, NOW);
          return b.grantOrder(grant(`order_${uid}`));
        },
        { subscribed: true, plan: 'Contract-30' },
      ],
      ['an admin change', (uid) => b.adminUpdateUser({ uid, change: () => ({ ok: true, patch: { role: 'admin' } }), actor: ACTOR, action: 'user.role', now: NOW }), { role: 'admin' }],
      ['an import', (uid) => b.importRecords('users', [record(uid, { plan: 'Basic', subscribed: true })]), { plan: 'Basic', subscribed: true }],
    ];

    it.each(writesOfB)('%s: served from the copy before the bound, never after it', async (_name, write, expected) => {
      const uid = `u-${_name.replace(/\W+/g, '-')}`;
      await b.createUser(record(uid));
      expect(await a.cachedUser(uid)).toEqual(record(uid)); // A checks the version now, at t0
      clock.advance(BOUND / 2);
      await write(uid);
      clock.advance(BOUND / 2 - 1);
      expect(await a.cachedUser(uid)).toEqual(record(uid)); // t0 + bound − 1: the copy may still answer
      clock.advance(1);
      expect(await a.cachedUser(uid)).toMatchObject(expected); // t0 + bound: never older
    });

    it('a record created on B replaces the copy of "no record" within the bound', async () => {
      expect(await a.cachedUser('late')).toBeNull();
      await b.createUser(record('late'));
      clock.advance(BOUND - 1);
      expect(await a.cachedUser('late')).toBeNull();
      clock.advance(1);
      expect(await a.cachedUser('late')).toEqual(record('late'));
    });

    it('with the background check (from three quarters of the bound), the bound holds as well', async () => {
      const [c, d] = await backend.openPair({ userCache: aCache({ background: true }) });
      try {
        await d.createUser(record('bg'));
        expect(await c.cachedUser('bg')).toEqual(record('bg'));
        await d.updateUsersBy('uid', 'bg', { plan: 'Premium', subscribed: true });
        clock.advance(BOUND * 0.8);
        // Answered from the copy while a check starts beside it…
        expect((await c.cachedUser('bg'))?.plan).toBeUndefined();
        clock.advance(BOUND * 0.2);
        // …and at the bound the write shows, whether that check has finished or not.
        expect(await c.cachedUser('bg')).toMatchObject({ plan: 'Premium', subscribed: true });
      } finally {
        await c.close();
        await d.close();
      }
    });

    it('a fresh read takes the store\'s record at once and keeps it', async () => {
      await staleInA('fresh');
      expect((await a.cachedUser('fresh', { fresh: true }))?.displayName).toBe('changed by B');
      expect((await a.cachedUser('fresh'))?.displayName).toBe('changed by B');
    });
  });

  it('hands out records nobody can change (they are shared by every request)', async () => {
    await a.createUser(record('frozen', { prefs: { weekly: true } }));
    const got = (await a.cachedUser('frozen'))!;
    expect(() => {
      (got as { plan?: string }).plan = 'Platinum';
    }).toThrow(TypeError);
    expect(() => {
      (got['prefs'] as { weekly: boolean }).weekly = false;
    }).toThrow(TypeError);
    expect(await a.findUserBy('uid', 'frozen')).toEqual(record('frozen', { prefs: { weekly: true } }));
  });

  it('answers null for an empty or impossible uid without a query', async () => {
    expect(await a.cachedUser('')).toBeNull();
    expect(await a.cachedUser('   ')).toBeNull();
    expect(await a.cachedUser('a/b')).toBeNull();
  });
});
