/** The UserStore contract: the spec's create / find / merge-update semantics, searches and facts. */
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/server/store/users.ts';
import { backends, storePerTest, withTwins, twinTest } from './backends.ts';

const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});

describe.each(backends)('user store on $name', (backend) => {
  const store = storePerTest(backend);

  describe('createUser and findUserBy', () => {
    it('creates once per uid and finds by uid, e-mail (any case) or phone', async () => {
      expect(await store().createUser(record('a', { phone: '+919876543210' }))).toBe(true);
      expect(await store().findUserBy('uid', 'a')).toEqual(record('a', { phone: '+919876543210' }));
      expect((await store().findUserBy('email', 'A@Example.TEST'))?.uid).toBe('a');
      expect(await store().findUserBy('email', '  a@example.test ')).toMatchObject({ uid: 'a' });
      expect((await store().findUserBy('phone', '+919876543210'))?.uid).toBe('a');
      expect(await store().findUserBy('email', 'nobody@example.test')).toBeNull();
      expect(await store().findUserBy('phone', '+910000000000')).toBeNull();
      expect(await store().findUserBy('uid', 'nobody')).toBeNull();
    });

    it('a second create with the same uid is refused and leaves the first record as it was', async () => {
      const first = record('dup', { phone: '+911111111111', favouriteGrade: 'ppRaffia' });
      expect(await store().createUser(first)).toBe(true);
      expect(await store().createUser(record('dup', { displayName: 'again', email: 'other@example.test', role: 'admin' }))).toBe(false);
      expect(await store().findUserBy('uid', 'dup')).toEqual(first);
      expect(await store().findUserBy('email', 'other@example.test')).toBeNull();
    });

    it('keeps every field of a record, unknown ones and nested values included', async () => {
      const full = record('full', {
        plan: 'Premium',
        subscriptionAmount: 15000,
        expiresAt: '2027-01-01T00:00:00.000Z',
        favouriteGrade: 'ppRaffia',
        prefs: { alerts: ['PP', 'PE'], weekly: true, nested: { depth: 2 } },
        score: 0,
        note: null,
        'company.name': 'Resins Ltd',
      });
      await store().createUser(full);
      expect(await store().findUserBy('uid', 'full')).toEqual(full);
    });

    it('returns the first record created when several share an e-mail', async () => {
      await store().createUser(record('older', { email: 'shared@example.test' }));
      await store().createUser(record('newer', { email: 'Shared@Example.test' }));
      expect((await store().findUserBy('email', 'shared@example.test'))?.uid).toBe('older');
    });

    it('returns nothing for empty input', async () => {
      await store().createUser(record('b', { email: null }));
      expect(await store().findUserBy('email', '')).toBeNull();
      expect(await store().findUserBy('email', '   ')).toBeNull();
      expect(await store().findUserBy('phone', null)).toBeNull();
      expect(await store().findUserBy('uid', undefined)).toBeNull();
      expect(await store().updateUsersBy('email', '', { plan: 'Premium' })).toBe(0);
      expect(await store().updateUsersBy('uid', '  ', { plan: 'Premium' })).toBe(0);
      expect(await store().findUserBy('uid', 'b')).toEqual(record('b', { email: null }));
    });
  });

  describe('ids and spaces', () => {
    it('trims a uid look-up as it trims e-mail and phone; an id no record can have finds nothing', async () => {
      await store().createUser(record('t1'));
      expect((await store().findUserBy('uid', ' t1 '))?.uid).toBe('t1');
      expect(await store().updateUsersBy('uid', ' t1 ', { company: 'Trim Ltd' })).toBe(1);
      expect((await store().findUserBy('uid', 't1'))?.['company']).toBe('Trim Ltd');
      for (const id of ['..', '.', '__x__', 'a/b']) {
        expect(await store().findUserBy('uid', id), id).toBeNull();
        expect(await store().updateUsersBy('uid', id, { plan: 'Basic' }), id).toBe(0);
      }
    });
  });

  describe('updateUsersBy and an admin change racing', () => {
    it('match as if one ran after the other: a record whose e-mail changed first is not patched', async () => {
      await store().createUser(record('race', { email: 'old@example.test' }));
      const [count] = await Promise.all([
        store().updateUsersBy('email', 'old@example.test', { flagged: true }),
        store().adminUpdateUser({ uid: 'race', change: () => ({ ok: true, patch: { email: 'new@example.test' } }), actor: { uid: 'admin', email: null }, action: 'user.email', now: new Date('2026-11-22T00:00:00Z') }),
      ]);
      const after = await store().findUserBy('uid', 'race');
      const entry = (await store().listAudit()).entries[0]!;
      expect(after?.email).toBe('new@example.test');
      if (count === 1) {
        // The patch ran first: the admin change saw it.
        expect(after?.['flagged']).toBe(true);
        expect(entry.before?.['flagged']).toBe(true);
      } else {
        expect(count).toBe(0);
        expect(after?.['flagged']).toBeUndefined();
      }
    });
  });

  describe('updateUsersBy', () => {
    it('merges into every match, keeps unknown fields and never moves a uid', async () => {
      await store().createUser(record('c1', { email: 'shared@example.test', favouriteGrade: 'ppRaffia', prefs: { weekly: true } }));
      await store().createUser(record('c2', { email: 'SHARED@example.test' }));
      await store().createUser(record('c3'));
      expect(await store().updateUsersBy('email', 'Shared@Example.Test', { subscribed: true, plan: 'Premium', uid: 'hijack' })).toBe(2);
      expect(await store().findUserBy('uid', 'c1')).toEqual(
        record('c1', { email: 'shared@example.test', favouriteGrade: 'ppRaffia', prefs: { weekly: true }, subscribed: true, plan: 'Premium' }),
      );
      expect(await store().findUserBy('uid', 'c2')).toEqual(record('c2', { email: 'SHARED@example.test', subscribed: true, plan: 'Premium' }));
      expect(await store().findUserBy('uid', 'c3')).toEqual(record('c3'));
      expect(await store().findUserBy('uid', 'hijack')).toBeNull();
    });

    it('finds by uid and by phone, adds new fields, and counts nothing when nothing matches', async () => {
      await store().createUser(record('p', { phone: '+919000000001' }));
      expect(await store().updateUsersBy('phone', '+919000000001', { company: 'Resins Ltd' })).toBe(1);
      expect(await store().updateUsersBy('uid', 'p', { displayName: 'Priya' })).toBe(1);
      expect(await store().findUserBy('uid', 'p')).toEqual(record('p', { phone: '+919000000001', company: 'Resins Ltd', displayName: 'Priya' }));
      expect(await store().updateUsersBy('uid', 'nobody', { plan: 'Basic' })).toBe(0);
      expect(await store().updateUsersBy('email', 'nobody@example.test', { plan: 'Basic' })).toBe(0);
      expect(await store().findUserBy('uid', 'nobody')).toBeNull();
    });

    it('sets a field the patch names null to null, keeping it', async () => {
      await store().createUser(record('z', { plan: 'Basic', phone: '+919000000002', 'company.name': 'Acme' }));
      expect(await store().updateUsersBy('uid', 'z', { plan: null, phone: null, displayName: null })).toBe(1);
      expect(await store().findUserBy('uid', 'z')).toEqual(record('z', { plan: null, phone: null, displayName: null, 'company.name': 'Acme' }));
      expect(await store().findUserBy('phone', '+919000000002')).toBeNull();
    });

    it('leaves a field the patch gives as undefined as it was (only null clears)', async () => {
      await store().createUser(record('u', { plan: 'Basic', company: 'Acme' }));
      expect(await store().updateUsersBy('uid', 'u', { company: undefined, displayName: 'Uma' })).toBe(1);
      expect(await store().findUserBy('uid', 'u')).toEqual(record('u', { plan: 'Basic', company: 'Acme', displayName: 'Uma' }));
    });

    it('replaces a field the patch names, nested values as a whole', async () => {
      await store().createUser(record('n', { prefs: { weekly: true, alerts: ['PP'] } }));
      await store().updateUsersBy('uid', 'n', { prefs: { alerts: ['PE'] }, subscribed: true });
      expect(await store().findUserBy('uid', 'n')).toEqual(record('n', { prefs: { alerts: ['PE'] }, subscribed: true }));
    });

    it('keeps the look-ups in step when a merge changes e-mail or phone', async () => {
      await store().createUser(record('d'));
      await store().updateUsersBy('uid', 'd', { phone: '+911234567890', email: 'New@Example.test' });
      expect((await store().findUserBy('phone', '+911234567890'))?.uid).toBe('d');
      expect((await store().findUserBy('email', 'new@example.test'))?.uid).toBe('d');
      expect(await store().findUserBy('email', 'd@example.test')).toBeNull();
      expect((await store().searchUsers('new@', 10)).map((u) => u.uid)).toEqual(['d']);
    });

    it('concurrent merges of different fields on one handle both survive', async () => {
      await store().createUser(record('m'));
      await Promise.all([
        store().updateUsersBy('uid', 'm', { plan: 'Premium' }),
        store().updateUsersBy('uid', 'm', { company: 'Acme' }),
        store().updateUsersBy('uid', 'm', { role: 'admin' }),
      ]);
      expect(await store().findUserBy('uid', 'm')).toEqual(record('m', { plan: 'Premium', company: 'Acme', role: 'admin' }));
    });

    // Two processes merging into one record at once: each transaction must see the other's
    // write. Holds only where transactions are isolated across processes (docs/data.md,
    // "Firestore layout": the offline stand-in does not isolate them).
    twinTest(backend, { isolated: true })('concurrent merges from two processes both survive', async () => {
      await withTwins(backend, async (a, b) => {
        await a.createUser(record('t'));
        await Promise.all([a.updateUsersBy('uid', 't', { plan: 'Premium' }), b.updateUsersBy('uid', 't', { company: 'Acme' })]);
        expect(await a.findUserBy('uid', 't')).toEqual(record('t', { plan: 'Premium', company: 'Acme' }));
      });
    });
  });

  describe('concurrent creates', () => {
    it('two creates of one uid on one handle make one record', async () => {
      const results = await Promise.all([store().createUser(record('same', { displayName: 'first' })), store().createUser(record('same', { displayName: 'second' }))]);
      expect(results.toSorted()).toEqual([false, true]);
      const kept = await store().findUserBy('uid', 'same');
      expect(['first', 'second']).toContain(kept?.displayName);
      expect((await store().listUserFacts()).map((f) => f.uid)).toEqual(['same']);
    });

    twinTest(backend)('two creates of one uid from two processes make one record', async () => {
      await withTwins(backend, async (a, b) => {
        const results = await Promise.all([a.createUser(record('same', { displayName: 'first' })), b.createUser(record('same', { displayName: 'second' }))]);
        expect(results.toSorted()).toEqual([false, true]);
        const winner = results[0] ? 'first' : 'second';
        expect((await b.findUserBy('uid', 'same'))?.displayName).toBe(winner);
        expect((await a.listUserFacts()).map((f) => f.uid)).toEqual(['same']);
      });
    });
  });

  describe('searchUsers', () => {
    it('searches by exact uid, e-mail or phone fragment (any case, spaces and dashes ignored), newest first', async () => {
      await store().createUser(record('s1', { email: 'rajesh@plastics.in', phone: '+919876543210' }));
      await store().createUser(record('s2', { email: 'ravi_k@plastics.in', phone: '+919812345678' }));
      await store().createUser(record('s3', { email: 'meena@resins.in' }));
      const uids = async (q: string, limit = 10) => (await store().searchUsers(q, limit)).map((u) => u.uid);
      expect(await uids('s3')).toEqual(['s3']);
      expect(await uids('s')).toEqual(['s3', 's2', 's1']); // 's' is inside every e-mail, not a uid match
      expect(await uids('PLASTICS')).toEqual(['s2', 's1']);
      expect(await uids('98765 43210')).toEqual(['s1']);
      expect(await uids('98-123')).toEqual(['s2']);
      expect(await uids('+9198')).toEqual(['s2', 's1']);
      expect(await uids('  meena@  ')).toEqual(['s3']);
      expect(await uids('_')).toEqual(['s2']);
      expect(await uids('%')).toEqual([]);
      expect(await uids('nobody')).toEqual([]);
      expect(await uids('s1x')).toEqual([]);
    });

    it('gives the newest accounts for an empty query, at most `limit`, whole records', async () => {
      for (const uid of ['n1', 'n2', 'n3', 'n4']) await store().createUser(record(uid, { extra: uid }));
      expect((await store().searchUsers('', 10)).map((u) => u.uid)).toEqual(['n4', 'n3', 'n2', 'n1']);
      expect((await store().searchUsers('  ', 2)).map((u) => u.uid)).toEqual(['n4', 'n3']);
      expect(await store().searchUsers('', 1)).toEqual([record('n4', { extra: 'n4' })]);
      expect((await store().searchUsers('example.test', 3)).map((u) => u.uid)).toEqual(['n4', 'n3', 'n2']);
      expect(await store().searchUsers('n2', 5)).toEqual([record('n2', { extra: 'n2' })]);
    });

    it('finds nothing in an empty store', async () => {
      expect(await store().searchUsers('', 10)).toEqual([]);
      expect(await store().searchUsers('a', 10)).toEqual([]);
    });
  });

  describe('listUserFacts', () => {
    it('lists the access facts of every record, without other fields', async () => {
      await store().createUser(record('f1', { role: 'admin', favouriteGrade: 'x' }));
      await store().createUser(record('f2', { subscribed: true, plan: 'Premium', expiresAt: '2027-01-01T00:00:00.000Z' }));
      await store().createUser(record('f3', { createdAt: '15-03-2025', plan: null }));
      const facts = (await store().listUserFacts()).toSorted((a, b) => a.uid.localeCompare(b.uid));
      expect(facts).toEqual([
        { uid: 'f1', record: { role: 'admin', subscribed: false, plan: null, createdAt: '01-01-2026', expiresAt: null } },
        { uid: 'f2', record: { role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2026', expiresAt: '2027-01-01T00:00:00.000Z' } },
        { uid: 'f3', record: { role: 'user', subscribed: false, plan: null, createdAt: '15-03-2025', expiresAt: null } },
      ]);
    });

    it('follows updates and is empty for an empty store', async () => {
      expect(await store().listUserFacts()).toEqual([]);
      await store().createUser(record('g'));
      await store().updateUsersBy('uid', 'g', { subscribed: true, plan: 'Basic', expiresAt: '2027-02-01T00:00:00.000Z' });
      expect(await store().listUserFacts()).toEqual([
        { uid: 'g', record: { role: 'user', subscribed: true, plan: 'Basic', createdAt: '01-01-2026', expiresAt: '2027-02-01T00:00:00.000Z' } },
      ]);
    });
  });
});
