/**
 * The seat a signed-in user holds on another account's plan (docs/payments.md, "Team seats"), for
 * their session. The user record names the seat (`seatId`); the seat itself is read from the
 * store at every request, never from this process's copy, so an owner removing it on any
 * instance ends the colleague's access at their next request. The owner's plan comes from the
 * user records as the caller's own record does (the per-process copy unless `fresh`).
 */
import type { SeatFacts } from '../../lib/access/policy.ts';
import { SEAT_FIELD, type SeatStore } from '../store/seats.ts';
import type { UserRecord, UserStore } from '../store/users.ts';

export type SeatReader = Pick<UserStore, 'cachedUser'> & Pick<SeatStore, 'findSeat'>;

export async function seatFactsOf(store: SeatReader, uid: string, record: UserRecord | null, { fresh = false }: { readonly fresh?: boolean } = {}): Promise<SeatFacts | null> {
  const id = record?.[SEAT_FIELD];
  if (typeof id !== 'string' || !id) return null;
  const seat = await store.findSeat(id);
  if (seat?.status !== 'held' || seat.holderUid !== uid) return null;
  const owner = await store.cachedUser(seat.ownerUid, { fresh });
  return {
    ownerUid: seat.ownerUid,
    ownerEmail: owner?.email ?? null,
    owner: owner ? { subscribed: owner.subscribed, plan: owner.plan ?? null, expiresAt: owner.expiresAt ?? null } : null,
  };
}
