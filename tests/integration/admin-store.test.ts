/**
 * The audited update's SQLite transaction: a failing audit insert (a NOT NULL column) rolls the
 * record back. The AuditStore port itself: tests/contract/audit.contract.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { AuditActor } from '../../src/server/store/audit.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { freshStore } from './helpers.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
const ACTOR: AuditActor = { uid: 'adm', email: 'Adm@Example.test' };

const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});

describe('adminUpdateUser on SQLite', () => {
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
});
