/** The user store on a real SQLite file: the spec's create / find / merge-update semantics. */
import { describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '../../src/server/store/users.ts';
import { updateUserBy } from '../../src/server/users.ts';
import { freshStore } from './helpers.ts';

const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});

describe('user store', () => {
  it('creates once per uid and finds by uid, e-mail (any case) or phone', async () => {
    const store = await freshStore();
    expect(await store.createUser(record('a', { phone: '+919876543210' }))).toBe(true);
    expect(await store.createUser(record('a', { displayName: 'again' }))).toBe(false);
    expect((await store.findUserBy('uid', 'a'))?.displayName).toBe('a');
    expect((await store.findUserBy('email', 'A@Example.TEST'))?.uid).toBe('a');
    expect((await store.findUserBy('phone', '+919876543210'))?.uid).toBe('a');
    expect(await store.findUserBy('email', 'nobody@example.test')).toBeNull();
    await store.close();
  });

  it('returns nothing for empty input without asking', async () => {
    const store = await freshStore();
    await store.createUser(record('b', { email: null }));
    expect(await store.findUserBy('email', '')).toBeNull();
    expect(await store.findUserBy('email', '   ')).toBeNull();
    expect(await store.findUserBy('phone', null)).toBeNull();
    expect(await store.updateUsersBy('email', '', { plan: 'Premium' })).toBe(0);
    await store.close();
  });

  it('merges into every match, keeps unknown fields and never moves a uid', async () => {
    const store = await freshStore();
    await store.createUser(record('c1', { email: 'shared@example.test', favouriteGrade: 'ppRaffia' }));
    await store.createUser(record('c2', { email: 'shared@example.test' }));
    expect(await store.updateUsersBy('email', 'shared@example.test', { subscribed: true, plan: 'Premium', uid: 'hijack' })).toBe(2);
    const c1 = await store.findUserBy('uid', 'c1');
    expect(c1).toMatchObject({ uid: 'c1', subscribed: true, plan: 'Premium', favouriteGrade: 'ppRaffia', displayName: 'c1' });
    expect(await store.findUserBy('uid', 'hijack')).toBeNull();
    await store.close();
  });

  it('keeps the look-up columns in step when a merge changes e-mail or phone', async () => {
    const store = await freshStore();
    await store.createUser(record('d'));
    await store.updateUsersBy('uid', 'd', { phone: '+911234567890', email: 'New@Example.test' });
    expect((await store.findUserBy('phone', '+911234567890'))?.uid).toBe('d');
    expect((await store.findUserBy('email', 'new@example.test'))?.uid).toBe('d');
    expect(await store.findUserBy('email', 'd@example.test')).toBeNull();
    await store.close();
  });
});

describe('updateUserBy (the spec helper)', () => {
  it('reports loading true then false, and logs when nothing matched', async () => {
    const store = await freshStore();
    const loading: boolean[] = [];
    const log = { info: vi.fn(), error: vi.fn() };
    expect(await updateUserBy(store, 'email', 'ghost@example.test', { plan: 'Basic' }, { onLoading: (l) => loading.push(l), log })).toBe(0);
    expect(loading).toEqual([true, false]);
    expect(log.info).toHaveBeenCalledWith('No matching documents found');
    await store.close();
  });

  it('clears loading and logs when the write fails', async () => {
    const store = await freshStore();
    await store.createUser(record('e'));
    await store.close(); // a closed database makes the write fail for real
    const loading: boolean[] = [];
    const log = { info: vi.fn(), error: vi.fn() };
    await expect(updateUserBy(store, 'email', 'e@example.test', { plan: 'Basic' }, { onLoading: (l) => loading.push(l), log })).rejects.toThrow();
    expect(loading).toEqual([true, false]);
    expect(log.error).toHaveBeenCalled();
  });

  it('does nothing at all for an empty value', async () => {
    const store = await freshStore();
    const loading: boolean[] = [];
    expect(await updateUserBy(store, 'phone', '', { plan: 'Basic' }, { onLoading: (l) => loading.push(l) })).toBe(0);
    expect(loading).toEqual([]);
    await store.close();
  });
});
