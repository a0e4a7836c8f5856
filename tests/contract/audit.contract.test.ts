/** The AuditStore contract: the audited user update (one transaction) and the audit log's pages and filters. */
import { describe, expect, it } from 'vitest';
import type { AuditActor } from '../../src/server/store/audit.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { backends, storePerTest, withTwins, twinTest } from './backends.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
const ACTOR: AuditActor = { uid: 'adm', email: 'Adm@Example.test' };

const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});

describe.each(backends)('audit store on $name', (backend) => {
  const store = storePerTest(backend);

  describe('adminUpdateUser', () => {
    it('merges the patch (unknown fields kept, uid never moved) and records one entry', async () => {
      await store().createUser(record('u1', { favouriteGrade: 'ppRaffia', prefs: { weekly: true } }));
      const seen: UserRecord[] = [];
      const result = await store().adminUpdateUser({
        uid: 'u1',
        change: (current) => {
          seen.push(current);
          return { ok: true, patch: { plan: 'Premium', subscribed: true, uid: 'hijack', email: 'New@Example.test' } };
        },
        actor: ACTOR,
        action: 'user.grant',
        now: NOW,
      });
      const before = record('u1', { favouriteGrade: 'ppRaffia', prefs: { weekly: true } });
      const after = { ...before, plan: 'Premium', subscribed: true, email: 'New@Example.test' };
      expect(seen).toEqual([before]);
      expect(result.kind).toBe('updated');
      if (result.kind !== 'updated') return;
      expect(result.before).toEqual(before);
      expect(result.after).toEqual(after);
      expect(await store().findUserBy('uid', 'u1')).toEqual(after);
      expect(await store().findUserBy('uid', 'hijack')).toBeNull();
      expect((await store().findUserBy('email', 'new@example.test'))?.uid).toBe('u1'); // look-ups kept in step
      expect(await store().findUserBy('email', 'u1@example.test')).toBeNull();
      const log = await store().listAudit();
      expect(log).toMatchObject({ total: 1, page: 1 });
      expect(log.entries).toEqual([result.entry]);
      expect(result.entry).toMatchObject({ at: NOW.toISOString(), actor: { uid: 'adm', email: 'adm@example.test' }, action: 'user.grant', target: 'user:u1' });
      expect(result.entry.before).toEqual(before);
      expect(result.entry.before).not.toHaveProperty('plan');
      expect(result.entry.after).toEqual(after);
    });

    it('a patch that changes nothing writes nothing and makes no entry', async () => {
      await store().createUser(record('same', { plan: 'Basic' }));
      const result = await store().adminUpdateUser({ uid: 'same', change: () => ({ ok: true, patch: { plan: 'Basic', role: 'user' } }), actor: ACTOR, action: 'user.role', now: NOW });
      expect(result).toEqual({ kind: 'unchanged', record: record('same', { plan: 'Basic' }) });
      expect((await store().listAudit()).total).toBe(0);
    });

    it('an undefined field in the patch is "not given": the field stays, and alone it changes nothing', async () => {
      await store().createUser(record('undef', { plan: 'Basic' }));
      const result = await store().adminUpdateUser({ uid: 'undef', change: () => ({ ok: true, patch: { plan: undefined } }), actor: ACTOR, action: 'user.plan', now: NOW });
      expect(result).toEqual({ kind: 'unchanged', record: record('undef', { plan: 'Basic' }) });
      expect(await store().findUserBy('uid', 'undef')).toEqual(record('undef', { plan: 'Basic' }));
      expect((await store().listAudit()).total).toBe(0);
    });

    it('passes the refusal through and writes nothing; a missing record is not_found', async () => {
      await store().createUser(record('u2'));
      const refused = await store().adminUpdateUser({ uid: 'u2', change: () => ({ ok: false, reason: { code: 'nope' } }), actor: ACTOR, action: 'user.role', now: NOW });
      expect(refused).toEqual({ kind: 'refused', reason: { code: 'nope' } });
      let asked = false;
      const missing = await store().adminUpdateUser({ uid: 'ghost', change: () => { asked = true; return { ok: true, patch: { role: 'admin' } }; }, actor: ACTOR, action: 'user.role', now: NOW });
      expect(missing).toEqual({ kind: 'not_found' });
      expect(asked).toBe(false);
      expect(await store().findUserBy('uid', 'ghost')).toBeNull();
      expect((await store().listAudit()).total).toBe(0);
      expect(await store().findUserBy('uid', 'u2')).toEqual(record('u2'));
    });

    it('rolls back when the change itself throws, and the store stays usable', async () => {
      await store().createUser(record('u4'));
      await expect(
        store().adminUpdateUser({ uid: 'u4', change: () => { throw new Error('boom'); }, actor: ACTOR, action: 'user.role', now: NOW }),
      ).rejects.toThrow('boom');
      expect((await store().listAudit()).total).toBe(0);
      expect(await store().findUserBy('uid', 'u4')).toEqual(record('u4'));
      expect((await store().adminUpdateUser({ uid: 'u4', change: () => ({ ok: true, patch: { role: 'admin' } }), actor: ACTOR, action: 'user.role', now: NOW })).kind).toBe('updated');
      expect((await store().listAudit()).total).toBe(1);
    });

    it('concurrent updates of one record on one handle: each sees the other’s result, entries get distinct ids', async () => {
      await store().createUser(record('cc'));
      const bump = (field: string) => store().adminUpdateUser({
        uid: 'cc',
        change: (current) => ({ ok: true, patch: { [field]: true, counter: Number(current['counter'] ?? 0) + 1 } }),
        actor: ACTOR,
        action: 'user.test',
        now: NOW,
      });
      const results = await Promise.all([bump('a'), bump('b'), bump('c')]);
      expect(results.map((r) => r.kind)).toEqual(['updated', 'updated', 'updated']);
      expect(await store().findUserBy('uid', 'cc')).toEqual(record('cc', { a: true, b: true, c: true, counter: 3 }));
      const log = await store().listAudit();
      expect(log.total).toBe(3);
      expect(new Set(log.entries.map((e) => e.id)).size).toBe(3);
      expect(log.entries.map((e) => e.after?.['counter'])).toEqual([3, 2, 1]);
    });

    twinTest(backend)('concurrent updates of one record from two processes: neither is lost', async () => {
      await withTwins(backend, async (a, b) => {
        await a.createUser(record('cc'));
        const bump = (s: typeof a, field: string) => s.adminUpdateUser({
          uid: 'cc',
          change: (current) => ({ ok: true, patch: { [field]: true, counter: Number(current['counter'] ?? 0) + 1 } }),
          actor: ACTOR,
          action: 'user.test',
          now: NOW,
        });
        const results = await Promise.all([bump(a, 'a'), bump(b, 'b')]);
        expect(results.map((r) => r.kind)).toEqual(['updated', 'updated']);
        expect(await b.findUserBy('uid', 'cc')).toEqual(record('cc', { a: true, b: true, counter: 2 }));
        const log = await a.listAudit();
        expect(log.total).toBe(2);
        expect(log.entries.map((e) => e.after?.['counter'])).toEqual([2, 1]);
        expect(log.entries[0]!.id).toBeGreaterThan(log.entries[1]!.id);
      });
    });
  });

  describe('listAudit', () => {
    async function fiveEntries() {
      await store().createUser(record('a'));
      await store().createUser(record('b'));
      const other: AuditActor = { uid: 'adm2', email: 'Two@Example.test' };
      for (let i = 0; i < 5; i += 1) {
        await store().adminUpdateUser({
          uid: i % 2 ? 'a' : 'b',
          change: () => ({ ok: true, patch: { counter: i } }),
          actor: i < 3 ? ACTOR : other,
          action: 'user.test',
          now: new Date(NOW.getTime() + i * 1000),
        });
      }
    }
    const counters = (page: { entries: readonly { after: Readonly<Record<string, unknown>> | null }[] }) => page.entries.map((e) => e.after?.['counter']);

    it('is empty on an empty store', async () => {
      expect(await store().listAudit()).toEqual({ entries: [], total: 0, page: 1, pageSize: 50 });
    });

    it('pages newest first with the total of all pages', async () => {
      await fiveEntries();
      const first = await store().listAudit({ pageSize: 2 });
      expect(first).toMatchObject({ total: 5, page: 1, pageSize: 2 });
      expect(counters(first)).toEqual([4, 3]);
      expect(first.entries[0]!.id).toBeGreaterThan(first.entries[1]!.id);
      expect(first.entries[0]!.at).toBe(new Date(NOW.getTime() + 4000).toISOString());
      const second = await store().listAudit({ pageSize: 2, page: 2 });
      expect(second).toMatchObject({ total: 5, page: 2, pageSize: 2 });
      expect(counters(second)).toEqual([2, 1]);
      expect(counters(await store().listAudit({ pageSize: 2, page: 3 }))).toEqual([0]);
      expect(await store().listAudit({ pageSize: 2, page: 4 })).toEqual({ entries: [], total: 5, page: 4, pageSize: 2 });
      expect(counters(await store().listAudit())).toEqual([4, 3, 2, 1, 0]);
      const ids = (await store().listAudit()).entries.map((e) => e.id);
      expect(ids).toEqual(ids.toSorted((x, y) => y - x));
    });

    it('clamps page and page size', async () => {
      await fiveEntries();
      const clamped = await store().listAudit({ page: 0, pageSize: 10_000 });
      expect(clamped).toMatchObject({ page: 1, pageSize: 200, total: 5 });
      expect(clamped.entries).toHaveLength(5);
      expect(await store().listAudit({ page: -3, pageSize: 0 })).toMatchObject({ page: 1, pageSize: 1, total: 5 });
    });

    it('filters by target, by actor uid or e-mail (any case), and by both', async () => {
      await fiveEntries();
      const byTarget = await store().listAudit({ target: 'user:a' });
      expect(byTarget.total).toBe(2);
      expect(counters(byTarget)).toEqual([3, 1]);
      expect(byTarget.entries.every((e) => e.target === 'user:a')).toBe(true);
      expect((await store().listAudit({ target: 'user:nobody' })).total).toBe(0);
      expect(counters(await store().listAudit({ actor: 'adm2' }))).toEqual([4, 3]);
      expect(counters(await store().listAudit({ actor: 'TWO@example.test' }))).toEqual([4, 3]);
      expect(counters(await store().listAudit({ actor: 'adm@example.TEST' }))).toEqual([2, 1, 0]);
      expect((await store().listAudit({ actor: 'adm2' })).entries[0]!.actor).toEqual({ uid: 'adm2', email: 'two@example.test' });
      expect((await store().listAudit({ actor: 'nobody' })).total).toBe(0);
      const both = await store().listAudit({ actor: 'adm', target: 'user:b' });
      expect(both.total).toBe(2);
      expect(counters(both)).toEqual([2, 0]);
      const paged = await store().listAudit({ actor: 'adm', pageSize: 2, page: 2 });
      expect(paged).toMatchObject({ total: 3, page: 2, pageSize: 2 });
      expect(counters(paged)).toEqual([0]);
      expect((await store().listAudit({ target: '  ', actor: '' })).total).toBe(5);
    });
  });
});
