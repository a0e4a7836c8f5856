/** Team seats (../seats.ts), written once over the document driver. */
import { seatEmailKey, seatState } from '../../../lib/seats.ts';
import { auditedSeat, SEAT_FIELD, seatTarget, type AcceptResult, type SeatRecord, type SeatStore } from '../seats.ts';
import type { UserRecord } from '../users.ts';
import { byFields, type DocumentDriver } from './driver.ts';

const ofOwner = (ownerUid: string) => [{ index: 'ownerUid', value: ownerUid }] as const;

export function createSeatStore(docs: DocumentDriver): SeatStore {
  return {
    inviteSeat: (seat, limit, owner, actor) =>
      docs.transact(async (tx) => {
        if (owner.email && seatEmailKey(owner.email) === seat.email) return { kind: 'own_address' } as const;
        const seats = await tx.list('seats', ofOwner(seat.ownerUid));
        const same = seats.find((s) => s.email === seat.email);
        if (same) return { kind: 'already_invited', seat: same } as const;
        if (seats.length >= limit) return { kind: 'limit' } as const;
        tx.create('seats', seat);
        await tx.audit({ at: seat.invitedAt, actor, action: 'seat.invite', target: seatTarget(seat.id), before: null, after: auditedSeat(seat) });
        return { kind: 'invited', seat } as const;
      }),

    async listSeats(ownerUid) {
      return (await docs.list('seats', ofOwner(ownerUid))).toSorted(byFields<SeatRecord>('invitedAt', 'id'));
    },

    findSeat: (id) => docs.get('seats', id),

    reinviteSeat: (ownerUid, id, tokenHash, invitedAt, inviteExpiresAt, actor) =>
      docs.transact(async (tx) => {
        const seat = await tx.get('seats', id);
        if (seat?.ownerUid !== ownerUid) return null;
        if (seat.status === 'held') return 'held' as const;
        const sent: SeatRecord = { ...seat, tokenHash, invitedAt, inviteExpiresAt };
        tx.put('seats', sent);
        await tx.audit({ at: invitedAt, actor, action: 'seat.reinvite', target: seatTarget(id), before: auditedSeat(seat), after: auditedSeat(sent) });
        return sent;
      }),

    acceptSeat: (id, tokenHash, holder, now) =>
      docs.transact(async (tx): Promise<AcceptResult> => {
        const [seat, user] = await Promise.all([tx.get('seats', id), tx.get('users', holder.uid)]);
        if (!seat) return { kind: 'not_found' };
        // Accepting a seat one already holds (a second click on the link) is not an error.
        if (seat.status === 'held') return seat.holderUid === holder.uid ? { kind: 'accepted', seat } : { kind: 'not_found' };
        if (seat.tokenHash !== tokenHash) return { kind: 'not_found' };
        if (seatState(seat, now) === 'expired') return { kind: 'expired' };
        if (!holder.email || seatEmailKey(holder.email) !== seat.email) return { kind: 'wrong_address', invited: seat.email };
        if (seat.ownerUid === holder.uid) return { kind: 'owner' };
        if (!user) return { kind: 'no_user_record' };
        const current = typeof user[SEAT_FIELD] === 'string' ? await tx.get('seats', user[SEAT_FIELD]) : null;
        if (current?.status === 'held' && current.holderUid === holder.uid) return { kind: 'holds_another' };
        const held: SeatRecord = { ...seat, status: 'held', tokenHash: null, holderUid: holder.uid, acceptedAt: now.toISOString() };
        tx.put('seats', held);
        tx.put('users', { ...user, [SEAT_FIELD]: id } satisfies UserRecord);
        await tx.audit({ at: now.toISOString(), actor: { uid: holder.uid, email: holder.email }, action: 'seat.accept', target: seatTarget(id), before: auditedSeat(seat), after: auditedSeat(held) });
        return { kind: 'accepted', seat: held };
      }),

    removeSeat: (ownerUid, id, actor, now) =>
      docs.transact(async (tx) => {
        const seat = await tx.get('seats', id);
        if (seat?.ownerUid !== ownerUid) return null;
        const holder = seat.holderUid ? await tx.get('users', seat.holderUid) : null;
        tx.delete('seats', id);
        if (holder && holder[SEAT_FIELD] === id) tx.put('users', { ...holder, [SEAT_FIELD]: null });
        await tx.audit({ at: now.toISOString(), actor, action: seat.status === 'held' ? 'seat.remove' : 'seat.revoke', target: seatTarget(id), before: auditedSeat(seat), after: null });
        return seat;
      }),
  };
}
