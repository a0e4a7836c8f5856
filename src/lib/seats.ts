/**
 * Team seats (docs/payments.md, "Team seats"): the rules of a plan shared with colleagues, pure.
 * A plan with more than one seat (the plan table's `seats`) lets its buyer, the owner, invite
 * (seats − 1) colleagues by e-mail. An invitation is a link that expires; the invited address
 * accepts it signed in as that address; the colleague then holds a seat and uses the owner's plan
 * (the access policy's `planInUse`; who may hand seats out is its `seatPlanOf`) until the owner removes the seat or the owner's plan ends.
 */
import type { Plan } from './plans.ts';

/** How long an invitation link may be accepted. */
export const INVITE_VALID_DAYS = 7;
const DAY_MS = 86_400_000;

export type SeatStatus = 'pending' | 'held';

/** What the rules need of a seat record (the store's record has these and more). */
export interface SeatLike {
  readonly status: SeatStatus;
  /** ISO instant after which a pending invitation can no longer be accepted. */
  readonly inviteExpiresAt: string;
}

/** What a seat looks like to its owner now: held, invited and waiting, or an invitation that expired. */
export type SeatState = 'held' | 'invited' | 'expired';

export function seatState(seat: SeatLike, now: Date): SeatState {
  if (seat.status === 'held') return 'held';
  return Date.parse(seat.inviteExpiresAt) > now.getTime() ? 'invited' : 'expired';
}

export const SEAT_STATE_WORDS: Record<SeatState, string> = { held: 'Joined', invited: 'Invited', expired: 'Invitation expired' };

/** When an invitation sent at `now` stops working. */
export const inviteExpiryOf = (now: Date): string => new Date(now.getTime() + INVITE_VALID_DAYS * DAY_MS).toISOString();

/** How many colleagues a plan lets its owner invite (the owner holds the first seat). */
export const colleagueSeatsOf = (plan: Plan | undefined): number => Math.max(0, (plan?.seats ?? 1) - 1);

/**
 * The key an invited address is compared by: trimmed, lower case (Firebase Auth keeps e-mail
 * addresses without regard to case).
 */
export const seatEmailKey = (email: string): string => email.trim().toLowerCase();

/**
 * An invitation link's token: `{seat id}.{secret}`. The id finds the record with one read; only
 * the secret's SHA-256 is stored. Null for anything else.
 */
export function parseInviteToken(token: string): { readonly id: string; readonly secret: string } | null {
  const match = /^([a-z0-9]{16})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  return match ? { id: match[1]!, secret: match[2]! } : null;
}

/** The path of the page where an invited colleague accepts (the link in the invitation mail). */
export const JOIN_PATH = '/account/join';
export const joinLinkOf = (siteUrl: string, token: string): string => `${siteUrl.replace(/\/$/, '')}${JOIN_PATH}?invite=${encodeURIComponent(token)}`;
