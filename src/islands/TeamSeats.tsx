/**
 * /account's Team card for the buyer of a plan with seats: how many of the plan's users are taken,
 * the invite form, and the list of colleagues with their state (joined, invited, invitation
 * expired), a Remove (or Revoke) button each and Re-send for an invitation. Every action is one
 * POST to /api/account/seats…; the server checks the input and the owner and says which field is
 * wrong. The list is rendered on the server first; the island keeps it in step with the answers.
 */
import { useEffect, useId, useState, type SyntheticEvent } from 'react';
import { isoDateOf, toDisplayDate } from '../lib/dates.ts';
import { INVITE_VALID_DAYS, SEAT_STATE_WORDS, type SeatState } from '../lib/seats.ts';

export interface TeamSeat {
  readonly id: string;
  readonly email: string;
  readonly state: SeatState;
  /** "27 Nov 2026": when the invitation stops working, or when they joined. */
  readonly when: string;
}

interface Props {
  readonly planName: string;
  readonly total: number;
  readonly seats: readonly TeamSeat[];
  /** The plan is current: invitations may be sent. */
  readonly current: boolean;
}

interface ErrorBody {
  readonly error?: { readonly message?: string; readonly field?: string };
}

async function post(path: string, body: unknown): Promise<{ ok: true; data: unknown } | { ok: false; message: string; field: string | undefined }> {
  try {
    const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
    const data: unknown = await response.json().catch(() => null);
    if (response.ok) return { ok: true, data };
    const error = (data as ErrorBody | null)?.error;
    return { ok: false, message: error?.message ?? `The server answered ${response.status}.`, field: error?.field };
  } catch {
    return { ok: false, message: 'We could not reach PolyIndex. Check your connection and try again.', field: undefined };
  }
}

/** An instant as the site writes dates (India's day). */
export const seatDate = (iso: string): string => toDisplayDate(isoDateOf(new Date(iso)));

interface SeatAnswer {
  readonly seat?: { readonly id: string; readonly email: string; readonly state: SeatState; readonly inviteExpiresAt: string; readonly acceptedAt: string | null };
  readonly mailed?: boolean;
}
const teamSeatOf = (seat: NonNullable<SeatAnswer['seat']>): TeamSeat => ({ id: seat.id, email: seat.email, state: seat.state, when: seatDate(seat.acceptedAt ?? seat.inviteExpiresAt) });

export default function TeamSeats({ planName, total, seats: initial, current }: Props) {
  const [ready, setReady] = useState(false);
  const [seats, setSeats] = useState<readonly TeamSeat[]>(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<{ message: string; field: string | undefined } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const emailId = useId();
  const errorId = useId();
  useEffect(() => setReady(true), []);

  const used = 1 + seats.length;
  const full = used >= total;

  async function invite(event: SyntheticEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    // Read from the field itself: an address typed before the island hydrated counts too.
    const form = event.currentTarget;
    const email = String(new FormData(form).get('email') ?? '');
    setBusy('invite');
    setError(null);
    setNotice(null);
    const answer = await post('/api/account/seats', { email });
    setBusy(null);
    if (!answer.ok) return setError({ message: answer.message, field: answer.field });
    const body = answer.data as SeatAnswer;
    if (body.seat) setSeats((list) => [...list, teamSeatOf(body.seat!)]);
    form.reset();
    setNotice(body.mailed === false ? `Invitation saved, but the mail to ${body.seat?.email ?? email} could not be sent: use Re-send.` : `Invitation sent to ${body.seat?.email ?? email}.`);
  }

  async function act(seat: TeamSeat, action: 'reinvite' | 'remove'): Promise<void> {
    setBusy(`${action}:${seat.id}`);
    setError(null);
    setNotice(null);
    const answer = await post(`/api/account/seats/${seat.id}/${action}`, {});
    setBusy(null);
    if (!answer.ok) return setError({ message: answer.message, field: undefined });
    if (action === 'remove') {
      setSeats((list) => list.filter((s) => s.id !== seat.id));
      setNotice(seat.state === 'held' ? `${seat.email} is removed: their access ends now.` : `The invitation to ${seat.email} is revoked.`);
    } else {
      const body = answer.data as SeatAnswer;
      if (body.seat) setSeats((list) => list.map((s) => (s.id === seat.id ? teamSeatOf(body.seat!) : s)));
      setNotice(body.mailed === false ? `A new link is saved, but the mail could not be sent. Try again later.` : `A new invitation is on its way to ${seat.email}.`);
    }
  }

  const emailError = error?.field === 'email';
  return (
    <div className="team" data-testid="team">
      <p className="team-count">
        <strong data-testid="seats-used">
          {used} of {total}
        </strong>{' '}
        users on your {planName} plan: you and {seats.length === 1 ? '1 colleague' : `${seats.length} colleagues`}.
      </p>
      {seats.length > 0 && (
        <ul className="team-list" data-testid="team-list">
          {seats.map((seat) => (
            <li key={seat.id} className="team-member" data-testid="team-member" data-state={seat.state}>
              <span className="team-email">{seat.email}</span>
              <span className={`team-state team-${seat.state}`}>
                {SEAT_STATE_WORDS[seat.state]}
                <span className="team-when">{seat.state === 'held' ? ` since ${seat.when}` : seat.state === 'invited' ? `, link valid until ${seat.when}` : ''}</span>
              </span>
              <span className="team-actions">
                {seat.state !== 'held' && current && (
                  <button type="button" className="btn btn-ghost btn-small" disabled={!ready || busy !== null} onClick={() => void act(seat, 'reinvite')}>
                    {busy === `reinvite:${seat.id}` ? 'Sending…' : 'Re-send'}
                  </button>
                )}
                <button type="button" className="btn btn-ghost btn-small" disabled={!ready || busy !== null} onClick={() => void act(seat, 'remove')} aria-label={`${seat.state === 'held' ? 'Remove' : 'Revoke the invitation to'} ${seat.email}`}>
                  {busy === `remove:${seat.id}` ? 'Removing…' : seat.state === 'held' ? 'Remove' : 'Revoke'}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {current ? (
        full ? (
          <p className="muted">Every seat is taken. Remove a colleague or revoke an invitation to invite someone else.</p>
        ) : (
          <form className="team-invite" onSubmit={(event) => void invite(event)} noValidate>
            <label htmlFor={emailId}>Invite a colleague by e-mail</label>
            <div className="team-invite-row">
              <input
                id={emailId}
                type="email"
                name="email"
                autoComplete="off"
                placeholder="colleague@company.com"
                required
                aria-invalid={emailError ? 'true' : undefined}
                aria-describedby={error ? errorId : undefined}
              />
              <button type="submit" className="btn btn-primary" disabled={!ready || busy !== null}>
                {busy === 'invite' ? 'Sending…' : 'Send invitation'}
              </button>
            </div>
            <p className="form-note">They get a link that works for {INVITE_VALID_DAYS} days. They sign in (or sign up) with this address and use your plan until you remove them.</p>
          </form>
        )
      ) : (
        <p className="muted">Your plan has ended: nobody on this list has access. Renew to give it back.</p>
      )}
      {error && (
        <p role="alert" className="form-error" id={errorId} data-testid="team-error">
          {error.message}
        </p>
      )}
      {notice && (
        <p role="status" className="team-notice" data-testid="team-notice">
          {notice}
        </p>
      )}
    </div>
  );
}
