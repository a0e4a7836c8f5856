/**
 * The account's own endpoints: the PDF of one of the signed-in buyer's GST documents (a tax
 * invoice or a credit note), drawn from the stored record. Only its owner gets it (and an
 * administrator, who answers the buyer's questions); anyone else is told there is no such
 * document, so numbers cannot be probed for other buyers' names.
 */
import { z } from 'astro/zod';
import { endpoint } from '../edge/endpoint.ts';
import { json, jsonError, readSignedInPost, unauthenticated } from '../http/responses.ts';
import { pdfOf } from '../invoices/issue.ts';
import { pdfFileName } from '../invoices/pdf.ts';
import { paymentsRuntime } from '../payments/index.ts';
import { acceptInvitation, inviteColleague, listingOf, reinviteColleague, removeColleague, teamOf, type SeatProblem } from './seats.ts';

/** "PI-26-27-00001" or "CN-26-27-00001", optionally with ".pdf". */
const DOCUMENT_ID = /^(PI|CN)-\d{2}-\d{2}-\d{5,7}$/;

/** GET /api/account/documents/{id}: the PDF, as an attachment named by its number. */
export const documentPdf = endpoint('signedIn', async ({ params, locals }) => {
  const session = locals.session;
  if (!session) return unauthenticated();
  const id = (params['id'] ?? '').replace(/\.pdf$/i, '');
  if (!DOCUMENT_ID.test(id)) return jsonError(404, 'not_found', 'There is no such document.', 'id');
  // The store the payments issue documents on (the process's store; tests install another).
  const db = (await paymentsRuntime()).store;
  const record = id.startsWith('PI') ? await db.findInvoice(id) : await db.findCreditNote(id);
  const mayRead = record !== null && (record.uid === session.uid || session.record?.role === 'admin');
  if (!record || !mayRead) return jsonError(404, 'not_found', 'There is no such document.', 'id');
  const pdf = await pdfOf(record);
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${pdfFileName(record.document)}"`,
      'Content-Length': String(pdf.length),
      'Cache-Control': 'private, no-store',
    },
  });
});

// Team seats (docs/payments.md, "Team seats"): every write is the signed-in owner's on their own
// seats (the store checks the owner), from our own pages (Origin), with a JSON body.

const answerOf = (outcome: SeatProblem): Response => jsonError(outcome.status, outcome.code, outcome.message, outcome.field);

const InviteBody = z.object({
  email: z
    .string({ error: 'Enter your colleague\'s e-mail address.' })
    .trim()
    .max(254, 'An e-mail address has at most 254 characters.')
    .pipe(z.email({ error: 'That is not an e-mail address.' })),
});
const NoBody = z.object({}).strict();
const AcceptBody = z.object({ token: z.string({ error: 'The invitation link\'s token is missing.' }).max(200, 'That is not an invitation link.') });
const SEAT_ID = /^[a-z0-9]{16}$/;

/** A seat id from the path, or the 400 to answer. */
const seatIdOf = (params: Record<string, string | undefined>): { ok: true; id: string } | { ok: false; response: Response } => {
  const id = params['id'] ?? '';
  return SEAT_ID.test(id) ? { ok: true, id } : { ok: false, response: jsonError(400, 'invalid_input', 'That is not a seat id.', 'id') };
};

/** GET /api/account/seats: the owner's team (`{team: null}` for a visitor who has none). */
export const listSeats = endpoint('signedIn', async ({ locals, store }) => {
  const session = locals.session;
  if (!session) return unauthenticated();
  return json({ team: await teamOf(await store(), session, new Date()) });
});

/** POST /api/account/seats `{email}`: invites a colleague (201), mailing them a link that expires. */
export const inviteSeat = endpoint('signedIn', async ({ request, locals, store }) => {
  const input = await readSignedInPost(request, locals.session, InviteBody);
  if (!input.ok) return input.response;
  const now = new Date();
  const outcome = await inviteColleague(await store(), input.session, input.data.email, now);
  return outcome.kind === 'problem' ? answerOf(outcome) : json({ seat: listingOf(outcome.seat, now), mailed: outcome.mailed }, 201);
});

/** POST /api/account/seats/{id}/reinvite `{}`: a new link (the old one stops working) and a new expiry. */
export const reinviteSeat = endpoint('signedIn', async ({ request, locals, params, store }) => {
  const input = await readSignedInPost(request, locals.session, NoBody);
  if (!input.ok) return input.response;
  const id = seatIdOf(params);
  if (!id.ok) return id.response;
  const now = new Date();
  const outcome = await reinviteColleague(await store(), input.session, id.id, now);
  return outcome.kind === 'problem' ? answerOf(outcome) : json({ seat: listingOf(outcome.seat, now), mailed: outcome.mailed });
});

/** POST /api/account/seats/{id}/remove `{}`: removes a colleague (their next request is refused) or revokes an invitation. */
export const removeSeat = endpoint('signedIn', async ({ request, locals, params, store }) => {
  const input = await readSignedInPost(request, locals.session, NoBody);
  if (!input.ok) return input.response;
  const id = seatIdOf(params);
  if (!id.ok) return id.response;
  const now = new Date();
  const outcome = await removeColleague(await store(), input.session, id.id, now);
  return outcome.kind === 'problem' ? answerOf(outcome) : json({ removed: listingOf(outcome.seat, now) });
});

/** POST /api/account/seats/accept `{token}`: the invited colleague, signed in as the invited address, takes the seat. */
export const acceptSeat = endpoint('signedIn', async ({ request, locals, store }) => {
  const input = await readSignedInPost(request, locals.session, AcceptBody);
  if (!input.ok) return input.response;
  const outcome = await acceptInvitation(await store(), input.session, input.data.token, new Date());
  return outcome.kind === 'problem' ? answerOf(outcome) : json({ seat: { id: outcome.seat.id, ownerEmail: outcome.ownerEmail, plan: outcome.planName } });
});
