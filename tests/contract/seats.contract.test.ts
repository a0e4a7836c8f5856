/**
 * Team seats on both adapters: invitations within the plan's seats, accepting (the secret, the
 * expiry, the invited address), the holder's record naming the seat, removal in one commit,
 * the audit trail, what the session reads, a second instance seeing a removal, and transfer.
 */
import { describe, expect, it } from 'vitest';
import { seatFactsOf } from '../../src/server/auth/seat.ts';
import { SEAT_FIELD, type SeatRecord } from '../../src/server/store/seats.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { attempt, backends, storePerTest, twinTest, withTwins } from './backends.ts';

const NOW = new Date('2026-11-27T06:00:00.000Z');
const LATER = new Date('2026-12-10T06:00:00.000Z');
const OWNER = { uid: 'owner', email: 'owner@firm.test' };
const hash = (n: number): string => n.toString(16).padStart(64, '0');
const user = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@firm.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});
const seatOf = (id: string, email: string, over: Partial<SeatRecord> = {}): SeatRecord => ({
  id: id.padEnd(16, '0').slice(0, 16),
  ownerUid: OWNER.uid,
  email,
  status: 'pending',
  tokenHash: hash(id.length + email.length),
  invitedAt: NOW.toISOString(),
  inviteExpiresAt: '2026-12-04T06:00:00.000Z',
  holderUid: null,
  acceptedAt: null,
  ...over,
});

describe.each(backends)('team seats on $name', (backend) => {
  const store = storePerTest(backend);

  it('invites up to the limit, one seat per address, never the owner\'s own address; lists oldest first', async () => {
    expect((await store().inviteSeat(seatOf('a', 'a@firm.test'), 2, OWNER, OWNER)).kind).toBe('invited');
    expect(await store().inviteSeat(seatOf('a2', 'a@firm.test'), 2, OWNER, OWNER)).toMatchObject({ kind: 'already_invited', seat: { id: seatOf('a', '').id } });
    expect((await store().inviteSeat(seatOf('own', 'owner@firm.test'), 2, OWNER, OWNER)).kind).toBe('own_address');
    expect((await store().inviteSeat(seatOf('b', 'b@firm.test', { invitedAt: LATER.toISOString() }), 2, OWNER, OWNER)).kind).toBe('invited');
    expect((await store().inviteSeat(seatOf('c', 'c@firm.test'), 2, OWNER, OWNER)).kind).toBe('limit');
    // Another owner's seats are theirs.
    expect((await store().inviteSeat(seatOf('d', 'c@firm.test', { ownerUid: 'other' }), 2, { email: null }, OWNER)).kind).toBe('invited');
    expect((await store().listSeats(OWNER.uid)).map((s) => s.email)).toEqual(['a@firm.test', 'b@firm.test']);
    expect(await store().findSeat(seatOf('c', '').id)).toBeNull();
  });

  it('accepts only the current secret, before expiry, for the invited address; the holder\'s record names the seat; a second click is no error', async () => {
    await store().createUser(user('col', { email: 'Col@Firm.test' }));
    await store().createUser(user('stranger'));
    const seat = seatOf('s', 'col@firm.test');
    await store().inviteSeat(seat, 4, OWNER, OWNER);
    const col = { uid: 'col', email: 'Col@Firm.test' };
    expect(await store().acceptSeat(seat.id, hash(1), col, NOW)).toEqual({ kind: 'not_found' });
    expect(await store().acceptSeat('nosuchseat000000', seat.tokenHash!, col, NOW)).toEqual({ kind: 'not_found' });
    expect(await store().acceptSeat(seat.id, seat.tokenHash!, { uid: 'stranger', email: 'stranger@firm.test' }, NOW)).toEqual({ kind: 'wrong_address', invited: 'col@firm.test' });
    expect(await store().acceptSeat(seat.id, seat.tokenHash!, col, LATER)).toEqual({ kind: 'expired' });
    // Re-sent: the old link stops working, the new one works after the old expiry.
    expect(await store().reinviteSeat('other', seat.id, hash(99), NOW.toISOString(), '2026-12-17T06:00:00.000Z', OWNER)).toBeNull();
    const resent = await store().reinviteSeat(OWNER.uid, seat.id, hash(99), LATER.toISOString(), '2026-12-17T06:00:00.000Z', OWNER);
    expect(resent).toMatchObject({ tokenHash: hash(99), inviteExpiresAt: '2026-12-17T06:00:00.000Z' });
    expect(await store().acceptSeat(seat.id, seat.tokenHash!, col, LATER)).toEqual({ kind: 'not_found' });
    const accepted = await store().acceptSeat(seat.id, hash(99), col, LATER);
    expect(accepted).toMatchObject({ kind: 'accepted', seat: { status: 'held', holderUid: 'col', tokenHash: null, acceptedAt: LATER.toISOString() } });
    expect((await store().findUserBy('uid', 'col'))?.[SEAT_FIELD]).toBe(seat.id);
    expect(await store().acceptSeat(seat.id, hash(99), col, LATER)).toMatchObject({ kind: 'accepted' });
    expect(await store().reinviteSeat(OWNER.uid, seat.id, hash(7), LATER.toISOString(), LATER.toISOString(), OWNER)).toBe('held');
    // The holder cannot take a second seat while this one is held.
    const second = seatOf('t', 'col@firm.test', { ownerUid: 'other' });
    await store().inviteSeat(second, 4, { email: null }, { uid: 'other', email: null });
    expect(await store().acceptSeat(second.id, second.tokenHash!, col, NOW)).toEqual({ kind: 'holds_another' });
  });

  it('removes a held seat and the holder\'s link to it in one commit; revokes a pending one; only the owner; every step audited without the secret', async () => {
    await store().createUser(user('col'));
    await store().createUser(user('owner', { subscribed: true, plan: 'Platinum', expiresAt: '2027-11-27T00:00:00.000Z' }));
    const held = seatOf('h', 'col@firm.test');
    const pending = seatOf('p', 'p@firm.test');
    await store().inviteSeat(held, 4, OWNER, OWNER);
    await store().inviteSeat(pending, 4, OWNER, OWNER);
    await store().acceptSeat(held.id, held.tokenHash!, { uid: 'col', email: 'col@firm.test' }, NOW);
    expect(await seatFactsOf(store(), 'col', await store().findUserBy('uid', 'col'))).toEqual({
      ownerUid: 'owner', ownerEmail: 'owner@firm.test', owner: { subscribed: true, plan: 'Platinum', expiresAt: '2027-11-27T00:00:00.000Z' },
    });
    expect(await store().removeSeat('col', held.id, OWNER, NOW)).toBeNull();
    expect((await store().removeSeat(OWNER.uid, held.id, OWNER, NOW))?.status).toBe('held');
    expect(await store().findSeat(held.id)).toBeNull();
    const col = await store().findUserBy('uid', 'col');
    expect(col?.[SEAT_FIELD] ?? null).toBeNull();
    expect(await seatFactsOf(store(), 'col', col)).toBeNull();
    expect((await store().removeSeat(OWNER.uid, pending.id, OWNER, NOW))?.status).toBe('pending');
    expect(await store().listSeats(OWNER.uid)).toEqual([]);
    const actions = async (id: string) => (await store().listAudit({ target: `seat:${id}` })).entries.map((e) => e.action);
    expect(await actions(held.id)).toEqual(['seat.remove', 'seat.accept', 'seat.invite']);
    expect(await actions(pending.id)).toEqual(['seat.revoke', 'seat.invite']);
    expect(JSON.stringify((await store().listAudit({ target: `seat:${held.id}` })).entries)).not.toContain(held.tokenHash!);
  });

  it('a record naming a seat it does not hold gives no seat (a stale copy of the user record after removal)', async () => {
    await store().createUser(user('col'));
    const stale = user('col', { [SEAT_FIELD]: seatOf('gone', '').id });
    expect(await seatFactsOf(store(), 'col', stale)).toBeNull();
    const other = seatOf('x', 'col@firm.test', { status: 'held', holderUid: 'someone-else', tokenHash: null });
    await store().importRecords('seats', [other]);
    expect(await seatFactsOf(store(), 'col', user('col', { [SEAT_FIELD]: other.id }))).toBeNull();
  });

  twinTest(backend)('a removal on one instance ends the seat on the other at its next read, whatever its copy of the user record says', async () => {
    await withTwins(backend, async (a, b) => {
      await a.createUser(user('col'));
      await a.createUser(user('owner', { subscribed: true, plan: 'Platinum', expiresAt: '2027-11-27T00:00:00.000Z' }));
      const seat = seatOf('tw', 'col@firm.test');
      await a.inviteSeat(seat, 4, OWNER, OWNER);
      await a.acceptSeat(seat.id, seat.tokenHash!, { uid: 'col', email: 'col@firm.test' }, NOW);
      const cached = await b.cachedUser('col');
      expect((await seatFactsOf(b, 'col', cached))?.owner?.plan).toBe('Platinum');
      await a.removeSeat(OWNER.uid, seat.id, OWNER, NOW);
      // b's record still names the seat: the seat itself is read from the store.
      expect(await seatFactsOf(b, 'col', cached)).toBeNull();
    });
  });

  it('refuses a seat record no store may hold, writing nothing', async () => {
    await expect(attempt(() => store().importRecords('seats', [seatOf('bad', 'x@firm.test', { tokenHash: 'the-secret' })]))).rejects.toThrow(/SHA-256/);
    await expect(attempt(() => store().importRecords('seats', [seatOf('ok', 'y@firm.test'), seatOf('held', 'z@firm.test', { status: 'held', holderUid: null })]))).rejects.toThrow(/holder/);
    await expect(attempt(() => store().importRecords('seats', [seatOf('ok', 'y@firm.test', { id: 'Not/An/Id' })]))).rejects.toThrow(/seat id/);
    expect(await store().listSeats(OWNER.uid)).toEqual([]);
  });

  it('exports and imports seats as they are (store:copy), idempotently', async () => {
    await store().inviteSeat(seatOf('c1', 'c1@firm.test'), 4, OWNER, OWNER);
    await store().importRecords('seats', [seatOf('c2', 'c2@firm.test', { status: 'held', holderUid: 'col', tokenHash: null, acceptedAt: NOW.toISOString() })]);
    const seats: SeatRecord[] = [];
    for await (const page of store().exportRecords('seats')) seats.push(...page);
    expect(seats).toHaveLength(2);
    const target = await backend.open();
    try {
      for (let i = 0; i < 2; i++) expect(await target.importRecords('seats', seats)).toBe(2);
      expect(await target.listSeats(OWNER.uid)).toEqual(await store().listSeats(OWNER.uid));
    } finally {
      await target.close();
    }
  });
});
