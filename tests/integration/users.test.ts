/** The spec helper updateUserBy on a real SQLite store (the UserStore port itself: tests/contract/users.contract.test.ts). */
import { describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '../../src/server/store/users.ts';
import { updateUserBy } from '../../src/server/users.ts';
import { freshStore } from './helpers.ts';

const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
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
