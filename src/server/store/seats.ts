/**
 * Team seats (the Store port's part; no I/O; the rules in src/lib/seats.ts). One record per seat
 * an owner hands out: first a pending invitation to an e-mail address (its link's secret kept
 * only as a SHA-256), then, once the invited colleague accepts, a held seat naming the holder.
 * Removing a seat or revoking an invitation deletes the record. The holder's user record carries
 * `seatId`, so a signed-in request finds the seat with one read by key; the seat itself is read
 * from the store at every such request (never this process's copy), so a removal counts on every
 * instance at the holder's next request.
 */
import type { SeatStatus } from '../../lib/seats.ts';
import type { AuditActor } from './audit.ts';

export interface SeatRecord {
  /** 16 lower-case letters and digits; the first part of the invitation's token. */
  readonly id: string;
  readonly ownerUid: string;
  /** The invited address, as `seatEmailKey` keeps it (lower case). */
  readonly email: string;
  readonly status: SeatStatus;
  /** SHA-256 (hex) of the invitation's secret; null once the seat is held. */
  readonly tokenHash: string | null;
  /** ISO instants: when the (latest) invitation was sent and until when it may be accepted. */
  readonly invitedAt: string;
  readonly inviteExpiresAt: string;
  /** The colleague's uid once they accepted. */
  readonly holderUid: string | null;
  readonly acceptedAt: string | null;
}

/** The user record's field naming the seat its user holds. */
export const SEAT_FIELD = 'seatId';

export type InviteResult = { readonly kind: 'invited'; readonly seat: SeatRecord } | { readonly kind: 'limit' } | { readonly kind: 'already_invited'; readonly seat: SeatRecord } | { readonly kind: 'own_address' };

export type AcceptResult =
  | { readonly kind: 'accepted'; readonly seat: SeatRecord }
  /** No such seat, or the token's secret does not match (revoked, re-sent, or made up). */
  | { readonly kind: 'not_found' }
  | { readonly kind: 'expired' }
  /** The signed-in address is not the invited one. */
  | { readonly kind: 'wrong_address'; readonly invited: string }
  /** The accepting user already holds a seat (this one: accepted twice is not an error, see `accepted`). */
  | { readonly kind: 'holds_another' }
  | { readonly kind: 'owner' }
  | { readonly kind: 'no_user_record' };

/** The fields of a seat the audit log keeps (never the token's hash). */
export const auditedSeat = (seat: SeatRecord): Readonly<Record<string, unknown>> => ({
  id: seat.id,
  ownerUid: seat.ownerUid,
  email: seat.email,
  status: seat.status,
  holderUid: seat.holderUid,
  inviteExpiresAt: seat.inviteExpiresAt,
});

export const seatTarget = (id: string): string => `seat:${id}`;

export interface SeatStore {
  /**
   * A pending invitation, when the owner has fewer than `limit` seats handed out (held, invited or
   * expired: an expired invitation keeps its place until it is re-sent or revoked) and has not
   * invited this address already. Audited (`seat.invite`).
   */
  inviteSeat(seat: SeatRecord, limit: number, owner: { readonly email: string | null }, actor: AuditActor): Promise<InviteResult>;
  /** The owner's seats, oldest invitation first. */
  listSeats(ownerUid: string): Promise<SeatRecord[]>;
  /** One seat by id, read from the store. */
  findSeat(id: string): Promise<SeatRecord | null>;
  /** A new link for a pending (or expired) invitation: the old link stops working. Audited (`seat.reinvite`). */
  reinviteSeat(ownerUid: string, id: string, tokenHash: string, invitedAt: string, inviteExpiresAt: string, actor: AuditActor): Promise<SeatRecord | null | 'held'>;
  /**
   * The invited colleague takes the seat: the secret matches, the invitation has not expired, the
   * signed-in address is the invited one. The seat becomes held and the holder's user record gets
   * `seatId`, in one commit. Audited (`seat.accept`).
   */
  acceptSeat(id: string, tokenHash: string, holder: { readonly uid: string; readonly email: string | null }, now: Date): Promise<AcceptResult>;
  /**
   * Ends a seat or an invitation of this owner: the record is deleted and a holder's `seatId`
   * cleared, in one commit. Audited (`seat.remove` or `seat.revoke`). Null when the owner has no
   * such seat.
   */
  removeSeat(ownerUid: string, id: string, actor: AuditActor, now: Date): Promise<SeatRecord | null>;
}
