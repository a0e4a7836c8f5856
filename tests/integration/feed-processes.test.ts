/**
 * The data feed on two server processes over one store: a key's rate and monthly quota hold for
 * both together (each process counts through its own store handle and meter leases, at the same
 * time; what a process leased and did not use it gives back as it stops), and a key
 * revoked, or its owner's plan lapsed, by one is refused by the other at its next look-up. On SQLite (one file) and on
 * Firestore: there only on Google's emulator, whose transactions are isolated across processes
 * (the in-memory stand-in does not isolate them; the run says it skipped).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hasDataFeed } from '../../src/lib/access/policy.ts';
import { apiKeyReader, hashKey, mintKey } from '../../src/server/feed/keys.ts';
import type { ApiKeyRecord } from '../../src/server/store/apiKeys.ts';
import { openFirestoreStore, openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { freshProjectId, realFirestore, suiteFirestore } from '../support/firestore.ts';
import { TEST_DATA_DIR } from './env.ts';

const run = promisify(execFile);
const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();

const BACKENDS = [
  {
    name: 'SQLite (one file)',
    runs: true,
    async open(): Promise<{ where: string; store: Store }> {
      const url = sqliteUrlFor(resolve(mkdtempSync(join(TEST_DATA_DIR, 'feed-two-'))));
      return { where: url, store: await openStore({ url }) };
    },
  },
  {
    name: "Firestore (Google's emulator)",
    runs: realFirestore(),
    async open(): Promise<{ where: string; store: Store }> {
      const { host } = suiteFirestore();
      const projectId = freshProjectId('feed-two');
      return { where: `firestore://${host}/${projectId}`, store: await openFirestoreStore({ projectId, emulatorHost: host }) };
    },
  },
];

const child = async (args: string[]) => {
  const { stdout } = await run(process.execPath, ['--experimental-transform-types', '--no-warnings', 'tests/integration/fixtures/feed-meter.ts', ...args], { timeout: 120_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
};

async function keyIn(store: Store, limits: Pick<ApiKeyRecord, 'ratePerMinute' | 'monthlyQuota'>): Promise<string> {
  const { key, id } = mintKey();
  await store.createApiKey({ id, ownerUid: 'two-platinum', name: 'shared', hash: hashKey(key), createdAt: new Date().toISOString(), urlKey: false, ...limits }, { uid: 'two-platinum', email: null });
  return key;
}

describe.each(BACKENDS)('the data feed on two processes over one store: $name', (backend) => {
  it.runIf(backend.runs)('holds the rate and the quota for both together, and a revoked key is refused by the other', async () => {
    const { where, store } = await backend.open();
    await store.createUser({ uid: 'two-platinum', displayName: 'two', email: 'two@example.test', phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Platinum', expiresAt: inAYear, createdAt: '01-01-2026' });
    // A minute boundary during the run would start a new window: begin early in one.
    while (new Date().getUTCSeconds() > 30) await new Promise((r) => setTimeout(r, 500));
    const rated = await keyIn(store, { ratePerMinute: 15, monthlyQuota: 1000 });
    const quota = await keyIn(store, { ratePerMinute: 1000, monthlyQuota: 12 });
    await store.close();

    const [a, b] = await Promise.all([child(['meter', where, rated, '12']), child(['meter', where, rated, '12'])]);
    expect((a['allowed'] as number) + (b['allowed'] as number)).toBe(15);
    expect((a['refused'] as number) + (b['refused'] as number)).toBe(9);
    // A rate of 1,000 a minute is leased 100 at a time (less near the quota): never more than the quota for both.
    const [c, d] = await Promise.all([child(['meter', where, quota, '10']), child(['meter', where, quota, '10'])]);
    const quotaAllowed = (c['allowed'] as number) + (d['allowed'] as number);
    expect(quotaAllowed).toBeLessThanOrEqual(12);
    expect(quotaAllowed).toBeGreaterThanOrEqual(10);

    // Revoked through one handle (a server), looked up by another process at its next request.
    expect(await child(['check', where, rated])).toEqual({ owner: 'two-platinum', feed: true });
    const again = backend.name.startsWith('SQLite') ? await openStore({ url: where }) : await openFirestoreStore({ projectId: new URL(where).pathname.slice(1), emulatorHost: new URL(where).host });
    try {
      // The owner's plan lapses through this handle: the other process's next look-up has no feed.
      await again.updateUsersBy('uid', 'two-platinum', { expiresAt: new Date(Date.now() - 86_400_000).toISOString() });
      expect(await child(['check', where, rated])).toEqual({ owner: 'two-platinum', feed: false });
      await again.updateUsersBy('uid', 'two-platinum', { expiresAt: inAYear });
      expect(await again.deleteApiKey('two-platinum', rated.split('_')[1]!, { uid: 'two-platinum', email: null }, new Date())).not.toBeNull();
      // Each process gave its leases' unused rest back as it stopped: the counts are the requests made.
      const usage = await again.apiKeyUsage('two-platinum', '2000-01-01');
      expect(usage.reduce((sum, u) => sum + u.requests, 0)).toBe(15 + quotaAllowed);
      const quotaKey = (await again.listApiKeys('two-platinum', new Date())).find((k) => k.key.id === quota.split('_')[1]);
      expect(quotaKey?.monthCount).toBe(quotaAllowed);
    } finally {
      await again.close();
    }
    expect(await child(['check', where, rated])).toEqual({ owner: null, feed: false });
    expect(await child(['check', where, quota])).toEqual({ owner: 'two-platinum', feed: true });
  }, 240_000);

  it.runIf(backend.runs)("refuses a key at this instance's next request after another process lapses its plan or revokes it, however long the facts were kept", async () => {
    const { where, store } = await backend.open();
    try {
      await store.createUser({ uid: 'two-platinum', displayName: 'two', email: 'two@example.test', phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Platinum', expiresAt: inAYear, createdAt: '01-01-2026' });
      const key = await keyIn(store, { ratePerMinute: 1000, monthlyQuota: 1000 });
      // This process is the serving instance: its reader keeps the key's facts while the store's change mark stays.
      const read = apiKeyReader(async () => store);
      const feedNow = async () => {
        const session = await read(key, 'header', new Date());
        return { owner: session?.uid ?? null, feed: hasDataFeed(session?.record ? session : null, new Date()) };
      };
      for (let i = 0; i < 3; i++) expect(await feedNow()).toEqual({ owner: 'two-platinum', feed: true });
      const mark = store.changeMark();
      if (mark !== null) expect(store.changeMark()).toBe(mark);
      expect(await child(['expire', where, 'two-platinum', new Date(Date.now() - 86_400_000).toISOString()])).toEqual({ done: true });
      if (mark !== null) expect(store.changeMark()).not.toBe(mark);
      expect(await feedNow()).toEqual({ owner: 'two-platinum', feed: false });
      expect(await child(['expire', where, 'two-platinum', inAYear])).toEqual({ done: true });
      for (let i = 0; i < 3; i++) expect(await feedNow()).toEqual({ owner: 'two-platinum', feed: true });
      expect(await child(['revoke', where, key])).toEqual({ done: true });
      expect(await feedNow()).toEqual({ owner: null, feed: false });
    } finally {
      await store.close();
    }
  }, 240_000);
});
