/**
 * The data feed's key reader (src/server/feed/keys.ts) against two handles of one store, as two
 * server processes hold it: a key revoked, its owner's plan lapsed or the owner's team seat
 * removed through the other handle is refused at the very next request through this one, also
 * after this process has seen the key (it remembers a key's owner to read both records at
 * once, and on SQLite keeps them while the store's change mark stays the same). On SQLite the
 * reads go through the point reader (src/server/store/sqlite/pointReads.ts), on Firestore
 * through the client.
 */
import { describe, expect, it } from 'vitest';
import { hasDataFeed } from '../../src/lib/access/policy.ts';
import { apiKeyReader, hashKey, mintKey } from '../../src/server/feed/keys.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { SeatRecord } from '../../src/server/store/seats.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { backends } from './backends.ts';

const IN_A_YEAR = () => new Date(Date.now() + 365 * 86_400_000).toISOString();
const A_DAY_AGO = () => new Date(Date.now() - 86_400_000).toISOString();
const platinum = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@firm.test`, phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Platinum', expiresAt: IN_A_YEAR(), createdAt: '01-01-2026', ...extra,
});

async function keyOf(store: Store, ownerUid: string): Promise<string> {
  const { key, id } = mintKey();
  await store.createApiKey({ id, ownerUid, name: 'sheet', hash: hashKey(key), createdAt: new Date().toISOString(), urlKey: false, ratePerMinute: 60, monthlyQuota: 1000 }, { uid: ownerUid, email: null });
  return key;
}

describe.each(backends)('a key is read at every request, on $name', (backend) => {
  it('refuses at the next request a key revoked, a plan lapsed or a seat removed through another handle', async () => {
    const [server, other] = await backend.openPair();
    try {
      const read = apiKeyReader(async () => server);
      // SQLite files keep a key's facts while nothing is written anywhere; Firestore reads them every time.
      expect(server.changeMark()).toEqual(backend.name === 'sqlite' ? expect.any(Number) : null);
      /** What the gate and the feed's endpoint would decide for the key now: refused (no record), or whether the feed is open. */
      const verdict = async (key: string) => {
        const session = await read(key, 'header', new Date());
        return session === null ? 'invalid' : hasDataFeed(session.record ? session : null, new Date()) ? 'feed' : 'no feed';
      };

      await other.createUser(platinum('owner'));
      const key = await keyOf(other, 'owner');
      // Seen twice: the second read finds the owner it remembers.
      expect(await verdict(key)).toBe('feed');
      expect(await verdict(key)).toBe('feed');

      // A lapsed plan, written by the other handle.
      await other.updateUsersBy('uid', 'owner', { expiresAt: A_DAY_AGO() });
      expect(await verdict(key)).toBe('no feed');
      await other.updateUsersBy('uid', 'owner', { expiresAt: IN_A_YEAR() });
      expect(await verdict(key)).toBe('feed');

      // A key of a colleague on the owner's team seat: open while the seat is held.
      await other.createUser(platinum('colleague', { subscribed: false, plan: null, expiresAt: null }));
      const seat: SeatRecord = {
        id: 'seatforthefeed00',
        ownerUid: 'owner',
        email: 'colleague@firm.test',
        status: 'pending',
        tokenHash: 'a'.repeat(64),
        invitedAt: new Date().toISOString(),
        inviteExpiresAt: IN_A_YEAR(),
        holderUid: null,
        acceptedAt: null,
      };
      expect((await other.inviteSeat(seat, 4, { email: 'owner@firm.test' }, { uid: 'owner', email: 'owner@firm.test' })).kind).toBe('invited');
      expect((await other.acceptSeat(seat.id, seat.tokenHash!, { uid: 'colleague', email: 'colleague@firm.test' }, new Date())).kind).toBe('accepted');
      const colleagues = await keyOf(other, 'colleague');
      expect(await verdict(colleagues)).toBe('feed');
      expect(await verdict(colleagues)).toBe('feed');
      expect(await other.removeSeat('owner', seat.id, { uid: 'owner', email: 'owner@firm.test' }, new Date())).not.toBeNull();
      expect(await verdict(colleagues)).toBe('no feed');

      // A key of a known id with another secret is refused (the hash is checked, not the id alone),
      // also while this reader keeps the real key's facts (read just before, nothing written since).
      const mistyped = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      expect(await verdict(key)).toBe('feed');
      const mark = server.changeMark();
      expect(await verdict(mistyped)).toBe('invalid');
      expect(await verdict(`${key}x`)).toBe('invalid');
      expect(await verdict(key)).toBe('feed');
      expect(server.changeMark()).toBe(mark);
      // Revoked through the other handle: no record, refused as a key never issued.
      expect(await other.deleteApiKey('owner', key.split('_')[1]!, { uid: 'owner', email: null }, new Date())).not.toBeNull();
      expect(await verdict(key)).toBe('invalid');
    } finally {
      await server.close();
      await other.close();
    }
  });
});
