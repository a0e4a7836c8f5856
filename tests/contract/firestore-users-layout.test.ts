/**
 * The Firestore user layout (src/server/store/firestore/collections.ts) beside the port's contract:
 * what a `users/{uid}` document holds, and how documents written by another client — the
 * legacy site or a client SDK, without our look-up fields — are still found.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openFirestore, type FirestoreHandle } from '../../src/server/store/firestore/database.ts';
import { firestoreStoreOver } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { suiteFirestore } from '../support/firestore.ts';

const handles: FirestoreHandle[] = [];
let project = 0;

afterAll(async () => {
  for (const handle of handles) await handle.close();
});

function open() {
  const handle = openFirestore({ projectId: `demo-users-layout-${process.pid}-${++project}`, emulatorHost: suiteFirestore().host });
  handles.push(handle);
  return { db: handle.db, users: firestoreStoreOver(handle.db) };
}

const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@Example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-11-2026', ...extra,
});

describe('users/{uid}', () => {
  it('holds the spec fields as they are, plus the look-up fields, which a read strips', async () => {
    const { db, users } = open();
    await users.createUser(record('u1', { phone: ' +91 98200 00001 ', legacyScore: 3 }));
    const raw = (await db.doc('users/u1').get()).data()!;
    expect(raw).toMatchObject({ uid: 'u1', email: 'u1@Example.test', phone: ' +91 98200 00001 ', legacyScore: 3, _emailKey: 'u1@example.test', _phoneKey: '+91 98200 00001' });
    expect(typeof raw['_seq']).toBe('string');
    expect(await users.findUserBy('uid', 'u1')).toEqual(record('u1', { phone: ' +91 98200 00001 ', legacyScore: 3 }));
  });

  it('finds, searches and merges into a legacy document that has no look-up fields', async () => {
    const { db, users } = open();
    await db.doc('users/legacy').set({ uid: 'legacy', email: 'legacy@mail.com', phone: '+919876543210', role: 'user', subscribed: false, createdAt: '05-03-2021', city: 'Pune' });
    expect((await users.findUserBy('email', 'Legacy@Mail.com'))?.uid).toBe('legacy');
    expect((await users.findUserBy('phone', '+919876543210'))?.uid).toBe('legacy');
    expect((await users.searchUsers('LEGACY@', 10)).map((u) => u.uid)).toEqual(['legacy']);
    expect((await users.searchUsers('98765', 10)).map((u) => u.uid)).toEqual(['legacy']);
    expect(await users.updateUsersBy('email', 'legacy@mail.com', { plan: 'Premium', subscribed: true })).toBe(1);
    // The merge kept the legacy fields and added our look-up fields, so the next look-up is indexed.
    const raw = (await db.doc('users/legacy').get()).data()!;
    expect(raw).toMatchObject({ city: 'Pune', plan: 'Premium', subscribed: true, _emailKey: 'legacy@mail.com', _phoneKey: '+919876543210' });
  });

  it('reads a Firestore Timestamp written by another client as an ISO instant', async () => {
    const { db, users } = open();
    const { Timestamp } = await import('firebase-admin/firestore');
    await db.doc('users/ts').set({ uid: 'ts', email: null, role: 'user', subscribed: true, createdAt: '01-01-2025', expiresAt: Timestamp.fromDate(new Date('2027-01-01T00:00:00Z')) });
    expect((await users.findUserBy('uid', 'ts'))?.expiresAt).toBe('2027-01-01T00:00:00.000Z');
    expect((await users.listUserFacts()).find((f) => f.uid === 'ts')?.record.expiresAt).toBe('2027-01-01T00:00:00.000Z');
  });

  it('a merge into a legacy document writes only what changed: its Timestamps stay Timestamps, and it gets its _seq', async () => {
    const { db, users } = open();
    const { Timestamp } = await import('firebase-admin/firestore');
    const expires = Timestamp.fromDate(new Date('2027-01-01T00:00:00Z'));
    await db.doc('users/old').set({ uid: 'old', email: 'old@mail.com', role: 'user', subscribed: true, createdAt: '01-01-2020', expiresAt: expires });
    expect(await users.updateUsersBy('uid', 'old', { company: 'Polymers Pvt Ltd' })).toBe(1);
    const raw = (await db.doc('users/old').get()).data()!;
    expect(raw['expiresAt']).toBeInstanceOf(Timestamp);
    expect((raw['expiresAt'] as InstanceType<typeof Timestamp>).isEqual(expires)).toBe(true);
    expect(raw).toMatchObject({ company: 'Polymers Pvt Ltd', _emailKey: 'old@mail.com' });
    expect(typeof raw['_seq']).toBe('string');
    // Now it has a place in creation order: the newest-accounts list includes it on every Firestore.
    expect((await users.searchUsers('', 10)).map((u) => u.uid)).toContain('old');
  });
});
