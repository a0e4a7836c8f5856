/**
 * Team seats on /account (docs/payments.md, "Team seats"): the owner invites, re-sends, revokes
 * and removes; the invited colleague accepts. The rules are src/lib/seats.ts; the records and
 * their transactions the store's (../store/seats.ts); this module makes the invitation's token,
 * mails the link and words every refusal. The invitation mail is sent after the record is
 * committed; a mail that fails leaves the invitation in place (the owner can re-send it).
 */
import { createHash, randomBytes } from 'node:crypto';
import { toDisplayDate } from '../../lib/dates.ts';
import { findPlan } from '../../lib/plans.ts';
import { seatPlanOf } from '../../lib/access/policy.ts';
import { colleagueSeatsOf, INVITE_VALID_DAYS, inviteExpiryOf, joinLinkOf, parseInviteToken, seatEmailKey, seatState, type SeatState } from '../../lib/seats.ts';
import type { Session } from '../auth/session.ts';
import { siteUrl } from '../delivery/index.ts';
import { renderMail, sendMail } from '../mail/index.ts';
import type { AuditActor } from '../store/audit.ts';
import type { SeatRecord, SeatStore } from '../store/seats.ts';
import type { UserStore } from '../store/users.ts';

type Stores = SeatStore & Pick<UserStore, 'findUserBy'>;

/** A refusal as the endpoints answer it: status, code, message, field. */
export interface SeatProblem {
  readonly kind: 'problem';
  readonly status: 400 | 403 | 404 | 409 | 410;
  readonly code: string;
  readonly message: string;
  readonly field?: string;
}

const problem = (status: SeatProblem['status'], code: string, message: string, field?: string): SeatProblem => (field === undefined ? { kind: 'problem', status, code, message } : { kind: 'problem', status, code, message, field });

const actorOf = (session: Session): AuditActor => ({ uid: session.uid, email: session.email });
const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const SEAT_ID_LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new invitation's token and what is stored of it. */
function mintInvite(id?: string): { readonly id: string; readonly token: string; readonly tokenHash: string } {
  const seatId = id ?? Array.from(randomBytes(16), (byte) => SEAT_ID_LETTERS[byte % SEAT_ID_LETTERS.length]).join('');
  const secret = randomBytes(32).toString('base64url');
  return { id: seatId, token: `${seatId}.${secret}`, tokenHash: hashSecret(secret) };
}

/** The invitation mail: who invites, to which plan, the link and until when it works. */
export function invitationMail(to: string, owner: { readonly name: string; readonly email: string | null }, planName: string, link: string, expiresAt: string) {
  const from = owner.email && owner.name !== owner.email ? `${owner.name} (${owner.email})` : owner.name;
  return {
    to,
    ...renderMail({
      subject: `${owner.name} invites you to their PolyIndex ${planName} plan`,
      heading: `Join ${owner.name}'s ${planName} plan`,
      blocks: [
        { paragraph: `${from} has a PolyIndex ${planName} plan and has given you a seat on it: you read every screen it opens, with your own sign-in, for as long as they keep you on the plan.` },
        { paragraph: `Open the link and sign in (or create your account) with this address, ${to}. The link works until ${toDisplayDate(expiresAt.slice(0, 10))} (${INVITE_VALID_DAYS} days).` },
        { link: { text: 'Accept the invitation', href: link } },
      ],
      footer: 'You got this mail because a PolyIndex subscriber entered your address. Not expecting it? Ignore it: nothing happens unless you accept.',
    }),
  };
}

async function mailInvite(seat: SeatRecord, token: string, session: Session): Promise<boolean> {
  const plan = findPlan(session.record?.plan);
  const ownerName = session.record?.displayName?.trim() || session.email || 'A PolyIndex subscriber';
  try {
    await sendMail(invitationMail(seat.email, { name: ownerName, email: session.email }, plan?.name ?? 'PolyIndex', joinLinkOf(siteUrl, token), seat.inviteExpiresAt));
    return true;
  } catch (error) {
    console.error(`[seats] invitation mail for seat ${seat.id} failed:`, error instanceof Error ? error.message : error);
    return false;
  }
}

const notOwner = (): SeatProblem => problem(403, 'not_seat_owner', 'Only the buyer of a current plan with team seats can invite colleagues (Platinum has 5 users).');

export type InviteOutcome = { readonly kind: 'invited'; readonly seat: SeatRecord; readonly mailed: boolean } | SeatProblem;

export async function inviteColleague(store: Stores, session: Session, email: string, now: Date): Promise<InviteOutcome> {
  const plan = seatPlanOf(session, now);
  if (!plan) return notOwner();
  const invite = mintInvite();
  const seat: SeatRecord = { id: invite.id, ownerUid: session.uid, email: seatEmailKey(email), status: 'pending', tokenHash: invite.tokenHash, invitedAt: now.toISOString(), inviteExpiresAt: inviteExpiryOf(now), holderUid: null, acceptedAt: null };
  const result = await store.inviteSeat(seat, colleagueSeatsOf(plan), { email: session.record?.email ?? session.email }, actorOf(session));
  switch (result.kind) {
    case 'own_address':
      return problem(400, 'own_address', 'That is your own address: you already have the plan. Invite a colleague\'s address.', 'email');
    case 'already_invited':
      return problem(409, 'already_invited', `${seat.email} is already on your team list: re-send their invitation there instead.`, 'email');
    case 'limit':
      return problem(409, 'no_seat_left', `Your ${plan.name} plan has ${plan.seats} users: you and ${colleagueSeatsOf(plan)} colleagues. Remove a colleague or revoke an invitation first.`, 'email');
    case 'invited':
      return { kind: 'invited', seat: result.seat, mailed: await mailInvite(result.seat, invite.token, session) };
  }
}

export type ReinviteOutcome = { readonly kind: 'reinvited'; readonly seat: SeatRecord; readonly mailed: boolean } | SeatProblem;

export async function reinviteColleague(store: Stores, session: Session, id: string, now: Date): Promise<ReinviteOutcome> {
  if (!seatPlanOf(session, now)) return notOwner();
  const invite = mintInvite(id);
  const result = await store.reinviteSeat(session.uid, id, invite.tokenHash, now.toISOString(), inviteExpiryOf(now), actorOf(session));
  if (result === null) return problem(404, 'no_such_seat', 'There is no such seat on your team.', 'id');
  if (result === 'held') return problem(409, 'seat_held', 'This colleague has already joined: there is nothing to re-send.', 'id');
  return { kind: 'reinvited', seat: result, mailed: await mailInvite(result, invite.token, session) };
}

/**
 * Removes a colleague or revokes an invitation. Allowed to the owner whatever their plan's state
 * (a lapsed owner may still tidy the list); the colleague's next request is refused.
 */
export async function removeColleague(store: Stores, session: Session, id: string, now: Date): Promise<{ readonly kind: 'removed'; readonly seat: SeatRecord } | SeatProblem> {
  const removed = await store.removeSeat(session.uid, id, actorOf(session), now);
  return removed ? { kind: 'removed', seat: removed } : problem(404, 'no_such_seat', 'There is no such seat on your team.', 'id');
}

export type AcceptOutcome = { readonly kind: 'accepted'; readonly seat: SeatRecord; readonly ownerEmail: string | null; readonly planName: string | null } | SeatProblem;

export async function acceptInvitation(store: Stores, session: Session, token: string, now: Date): Promise<AcceptOutcome> {
  const parsed = parseInviteToken(token);
  if (!parsed) return problem(400, 'invalid_input', 'That is not an invitation link: open the link from the mail as it is.', 'token');
  const result = await store.acceptSeat(parsed.id, hashSecret(parsed.secret), { uid: session.uid, email: session.email ?? session.record?.email ?? null }, now);
  switch (result.kind) {
    case 'not_found':
      return problem(404, 'invitation_not_found', 'This invitation is no longer valid: it was revoked, re-sent (use the newest mail) or never existed. Ask the colleague who invited you.', 'token');
    case 'expired':
      return problem(410, 'invitation_expired', `This invitation has expired (a link works ${INVITE_VALID_DAYS} days). Ask the colleague who invited you to re-send it.`, 'token');
    case 'wrong_address':
      return problem(403, 'wrong_address', `This invitation is for ${result.invited}. Sign out and sign in (or create an account) with that address.`, 'token');
    case 'holds_another':
      return problem(409, 'holds_another_seat', 'You already use another subscriber\'s plan. Ask them to remove you first.', 'token');
    case 'owner':
      return problem(409, 'own_invitation', 'This is an invitation you sent: it is for a colleague.', 'token');
    case 'no_user_record':
      return problem(409, 'no_user_record', 'Your account is still being set up; try again in a moment.');
    case 'accepted': {
      const owner = await store.findUserBy('uid', result.seat.ownerUid);
      return { kind: 'accepted', seat: result.seat, ownerEmail: owner?.email ?? null, planName: findPlan(owner?.plan)?.name ?? null };
    }
  }
}

/** What the owner's Team card shows of a seat (never the token's hash). */
export interface SeatListing {
  readonly id: string;
  readonly email: string;
  readonly state: SeatState;
  readonly invitedAt: string;
  readonly inviteExpiresAt: string;
  readonly acceptedAt: string | null;
}

export const listingOf = (seat: SeatRecord, now: Date): SeatListing => ({
  id: seat.id,
  email: seat.email,
  state: seatState(seat, now),
  invitedAt: seat.invitedAt,
  inviteExpiresAt: seat.inviteExpiresAt,
  acceptedAt: seat.acceptedAt,
});

/** The owner's team as /account shows it: the plan's users (the owner counts), who is on it, and whether the owner may hand out seats now. */
export interface Team {
  readonly planName: string;
  /** Users the plan allows, the owner included. */
  readonly total: number;
  /** The owner and every seat handed out (held, invited or expired). */
  readonly used: number;
  readonly seats: readonly SeatListing[];
  /** False when the plan lapsed: the list stays, to tidy, and nobody on it has access. */
  readonly current: boolean;
}

/** The Team card's data for an owner, or null for a visitor with no seats to show (no plan with seats and none handed out). */
export async function teamOf(store: Stores, session: Session, now: Date): Promise<Team | null> {
  const plan = seatPlanOf(session, now);
  const seats = await store.listSeats(session.uid);
  if (!plan && seats.length === 0) return null;
  const named = plan ?? findPlan(session.record?.plan);
  return {
    planName: named?.name ?? 'Your',
    total: named?.seats ?? 1,
    used: 1 + seats.length,
    seats: seats.map((seat) => listingOf(seat, now)),
    current: plan !== null,
  };
}

/** What the join page shows of an invitation before it is accepted: who invites, to which plan, for which address. */
export interface InvitationView {
  readonly kind: 'invitation';
  readonly email: string;
  readonly ownerName: string;
  readonly planName: string | null;
  readonly state: SeatState;
  /** The seat is held by the signed-in visitor already. */
  readonly yours: boolean;
}

/** The invitation behind a link's token (the secret must match: a seat id alone shows nothing), or the problem to show. */
export async function invitationOf(store: Stores, token: string, viewerUid: string, now: Date): Promise<InvitationView | SeatProblem> {
  const parsed = parseInviteToken(token);
  const invalid = problem(404, 'invitation_not_found', 'This invitation is no longer valid: it was revoked, re-sent (use the newest mail) or never existed. Ask the colleague who invited you.', 'token');
  if (!parsed) return problem(400, 'invalid_input', 'That is not an invitation link: open the link from the mail as it is.', 'token');
  const seat = await store.findSeat(parsed.id);
  if (!seat) return invalid;
  const yours = seat.status === 'held' && seat.holderUid === viewerUid;
  if (!yours && seat.tokenHash !== hashSecret(parsed.secret)) return invalid;
  const owner = await store.findUserBy('uid', seat.ownerUid);
  return { kind: 'invitation', email: seat.email, ownerName: owner?.displayName?.trim() || owner?.email || 'A PolyIndex subscriber', planName: findPlan(owner?.plan)?.name ?? null, state: seatState(seat, now), yours };
}
