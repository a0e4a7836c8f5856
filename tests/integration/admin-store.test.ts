/** The admin parts of the Store on a real SQLite file: the audited update's transaction, the audit log, searches and counts. */
import { describe, expect, it } from 'vitest';
import type { AuditActor } from '../../src/server/store/audit.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { freshStore } from './helpers.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
const ACTOR: AuditActor = { uid: 'adm', email: 'Adm@Example.test' };

const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});

describe('adminUpdateUser', () => {
  it('merges the patch (unknown fields kept, uid never moved) and records one entry', async () => {
    const store = await freshStore();
    await store.createUser(record('u1', { favouriteGrade: 'ppRaffia' }));
    const result = await store.adminUpdateUser({
      uid: 'u1',
      change: () => ({ ok: true, patch: { plan: 'Premium', subscribed: true, uid: 'hijack', email: 'New@Example.test' } }),
      actor: ACTOR,
      action: 'user.grant',
      now: NOW,
    });
    expect(result.kind).toBe('updated');
    expect(await store.findUserBy('uid', 'u1')).toMatchObject({ uid: 'u1', plan: 'Premium', subscribed: true, favouriteGrade: 'ppRaffia' });
    expect(await store.findUserBy('uid', 'hijack')).toBeNull();
    expect((await store.findUserBy('email', 'new@example.test'))?.uid).toBe('u1'); // look-up columns kept in step
    const log = await store.listAudit();
    expect(log.total).toBe(1);
    expect(log.entries[0]).toMatchObject({ at: NOW.toISOString(), actor: { uid: 'adm', email: 'adm@example.test' }, action: 'user.grant', target: 'user:u1' });
    expect(log.entries[0]?.before).toMatchObject({ subscribed: false, favouriteGrade: 'ppRaffia' });
    expect(log.entries[0]?.before).not.toHaveProperty('plan');
    expect(log.entries[0]?.after).toMatchObject({ plan: 'Premium', subscribed: true });
    await store.close();
  });

  it('passes the refusal through and writes nothing; a missing record is not_found', async () => {
    const store = await freshStore();
    await store.createUser(record('u2'));
    const refused = await store.adminUpdateUser({ uid: 'u2', change: () => ({ ok: false, reason: { code: 'nope' } }), actor: ACTOR, action: 'user.role', now: NOW });
    expect(refused).toEqual({ kind: 'refused', reason: { code: 'nope' } });
    const missing = await store.adminUpdateUser({ uid: 'ghost', change: () => ({ ok: true, patch: { role: 'admin' } }), actor: ACTOR, action: 'user.role', now: NOW });
    expect(missing).toEqual({ kind: 'not_found' });
    expect((await store.listAudit()).total).toBe(0);
    expect(await store.findUserBy('uid', 'u2')).toEqual(record('u2'));
    await store.close();
  });

  it('rolls the record back when the audit entry cannot be written (nothing half-written)', async () => {
    const store = await freshStore();
    await store.createUser(record('u3'));
    const broken = { uid: null, email: null } as unknown as AuditActor; // actor_uid is NOT NULL
    await expect(store.adminUpdateUser({ uid: 'u3', change: () => ({ ok: true, patch: { role: 'admin' } }), actor: broken, action: 'user.role', now: NOW })).rejects.toThrow();
    expect((await store.findUserBy('uid', 'u3'))?.role).toBe('user');
    expect((await store.listAudit()).total).toBe(0);
    // The store is still usable after the rollback.
    expect((await store.adminUpdateUser({ uid: 'u3', change: () => ({ ok: true, patch: { role: 'admin' } }), actor: ACTOR, action: 'user.role', now: NOW })).kind).toBe('updated');
    await store.close();
  });

  it('rolls back when the change itself throws', async () => {
    const store = await freshStore();
    await store.createUser(record('u4'));
    await expect(
      store.adminUpdateUser({ uid: 'u4', change: () => { throw new Error('boom'); }, actor: ACTOR, action: 'user.role', now: NOW }),
    ).rejects.toThrow('boom');
    expect((await store.listAudit()).total).toBe(0);
    await store.close();
  });
});

describe('listAudit', () => {
  it('pages newest first and filters by target and by actor uid or e-mail', async () => {
    const store = await freshStore();
    await store.createUser(record('a'));
    await store.createUser(record('b'));
    const other: AuditActor = { uid: 'adm2', email: 'two@example.test' };
    for (let i = 0; i < 5; i += 1) {
      await store.adminUpdateUser({ uid: i % 2 ? 'a' : 'b', change: () => ({ ok: true, patch: { counter: i } }), actor: i < 3 ? ACTOR : other, action: 'user.test', now: new Date(NOW.getTime() + i * 1000) });
    }
    const first = await store.listAudit({ pageSize: 2 });
    expect(first).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(first.entries.map((e) => e.after?.['counter'])).toEqual([4, 3]);
    expect((await store.listAudit({ pageSize: 2, page: 3 })).entries.map((e) => e.after?.['counter'])).toEqual([0]);
    expect((await store.listAudit({ target: 'user:a' })).entries.map((e) => e.after?.['counter'])).toEqual([3, 1]);
    expect((await store.listAudit({ actor: 'adm2' })).total).toBe(2);
    expect((await store.listAudit({ actor: 'TWO@example.test' })).total).toBe(2);
    expect((await store.listAudit({ actor: 'adm', target: 'user:b' })).entries.map((e) => e.after?.['counter'])).toEqual([2, 0]);
    expect((await store.listAudit({ page: 0, pageSize: 10_000 })).pageSize).toBe(200);
    await store.close();
  });
});

describe('admin look-ups', () => {
  it('searches by uid, e-mail or phone fragment; LIKE wildcards are literal; newest first when empty', async () => {
    const store = await freshStore();
    await store.createUser(record('s1', { email: 'rajesh@plastics.in', phone: '+919876543210' }));
    await store.createUser(record('s2', { email: 'ravi_k@plastics.in' }));
    await store.createUser(record('s3', { email: 'meena@resins.in' }));
    const uids = async (q: string) => (await store.searchUsers(q, 10)).map((u) => u.uid);
    expect(await uids('s3')).toEqual(['s3']);
    expect(await uids('PLASTICS')).toEqual(['s2', 's1']);
    expect(await uids('98765 43210')).toEqual(['s1']);
    expect(await uids('_')).toEqual(['s2']);
    expect(await uids('%')).toEqual([]);
    expect(await uids('')).toEqual(['s3', 's2', 's1']);
    expect((await store.searchUsers('', 1)).map((u) => u.uid)).toEqual(['s3']);
    await store.close();
  });

  it('lists the access facts of every record', async () => {
    const store = await freshStore();
    await store.createUser(record('f1', { role: 'admin' }));
    await store.createUser(record('f2', { subscribed: true, plan: 'Premium', expiresAt: '2027-01-01T00:00:00.000Z' }));
    expect(await store.listUserFacts()).toEqual([
      { uid: 'f1', record: { role: 'admin', subscribed: false, plan: null, createdAt: '01-01-2026', expiresAt: null } },
      { uid: 'f2', record: { role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2026', expiresAt: '2027-01-01T00:00:00.000Z' } },
    ]);
    await store.close();
  });

  it('lists a user’s orders newest first and counts orders by state', async () => {
    const store = await freshStore();
    const order = (id: string, uid: string) => ({ id, uid, plan: 'Premium', amount: 1_500_000, currency: 'INR', receipt: `r-${id}` });
    await store.createOrder(order('o1', 'x'), new Date('2026-11-01T00:00:00Z'));
    await store.createOrder(order('o2', 'x'), new Date('2026-11-02T00:00:00Z'));
    await store.createOrder(order('o3', 'y'), new Date('2026-11-03T00:00:00Z'));
    await store.failOrder({ orderId: 'o1', paymentId: 'p1', reason: 'declined', now: NOW });
    expect((await store.listOrdersByUid('x')).map((o) => [o.id, o.status])).toEqual([['o2', 'created'], ['o1', 'failed']]);
    expect(await store.listOrdersByUid('nobody')).toEqual([]);
    expect(await store.countOrdersByStatus()).toEqual({ created: 2, paid: 0, failed: 1 });
    await store.close();
  });
});
