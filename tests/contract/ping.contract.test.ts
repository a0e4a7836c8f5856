/** `ping()`: one tiny read that answers whether the store can be read (health, outage probes). */
import { describe, expect, it } from 'vitest';
import { backends } from './backends.ts';
import { openStore, sqliteUrlFor } from '../../src/server/store/index.ts';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_DATA_DIR } from '../integration/env.ts';

describe.each(backends)('ping on $name', (backend) => {
  it('resolves on an open store, empty or not', async () => {
    const store = await backend.open();
    try {
      await expect(store.ping()).resolves.toBeUndefined();
      await store.createUser({ uid: 'p1', displayName: null, email: null, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-11-2026' });
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe('ping of a store that cannot be read', () => {
  it('rejects (a closed SQLite store)', async () => {
    const store = await openStore({ url: sqliteUrlFor(mkdtempSync(join(TEST_DATA_DIR, 'ping-'))) });
    await store.close();
    await expect(store.ping()).rejects.toThrow();
  });
});
