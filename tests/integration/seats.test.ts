/**
 * Team seats over HTTP and across instances (docs/payments.md, "Team seats"): the endpoints
 * against the suite's real SQLite store, every input refused with a clear 400 and nothing
 * written, the invitation mail's link accepted by the invited address only, and a removal made on
 * another instance (a second handle on the same SQLite file) refused at the colleague's next
 * request in both lanes, while this instance's copy of their user record still names the seat.
 */
import { resolve } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionFromCookie } from '../../src/server/auth/currentSession.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { SESSION_COOKIE, startSession } from '../../src/server/auth/sessions.ts';
import { createSiteServer, type SiteServer } from '../../src/server/http/siteServer.ts';
import { createAccessMiddleware } from '../../src/server/lanes/astroLane.ts';
import { createFastLane } from '../../src/server/lanes/fastLane.ts';
import { deliveryRightsOf } from '../../src/lib/delivery/rights.ts';
import { subscriberOf } from '../../src/server/delivery/dispatch.ts';
import { outboxMessage, outboxMessages } from '../../src/server/mail/index.ts';
import { auth, store as runtimeStore } from '../../src/server/runtime.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { SEAT_FIELD } from '../../src/server/store/seats.ts';
import { USER_RECORD_BOUND_MS } from '../../src/server/store/userCache.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { TEST_DATA_DIR } from './env.ts';
import { apiContext, emulatorSignUp, uniqueEmail } from './helpers.ts';

const ORIGIN = 'http://127.0.0.1:4321';
const DAY_MS = 86_400_000;
const FEEDSTOCK = '/api/feedstock?name=Naphtha&country=japan';

let seats: { GET: APIRoute; POST: APIRoute };
let accept: APIRoute;
let reinvite: APIRoute;
let remove: APIRoute;
let shared: Store;
let here: Store;
let elsewhere: Store;
let site: SiteServer;
let base: string;
let view: (path: string, cookie: string) => Promise<Response>;
/** This instance's record-cache clock, and the requests' clock (the policy's `now`) of the Astro lane. */
let cacheClock = 0;
let requestNow: number | null = null;

beforeAll(async () => {
  seats = await import('../../src/pages/api/account/seats/index.ts');
  accept = (await import('../../src/pages/api/account/seats/accept.ts')).POST;
  reinvite = (await import('../../src/pages/api/account/seats/[id]/reinvite.ts')).POST;
  remove = (await import('../../src/pages/api/account/seats/[id]/remove.ts')).POST;
  shared = await runtimeStore();
  // Two more handles on the suite's database: this instance (its record cache on a clock that
  // never moves, so no version check can explain an answer) and another instance.
  const url = sqliteUrlFor(resolve(TEST_DATA_DIR));
  here = await openStore({ url, userCache: { now: () => cacheClock, refreshAtMs: USER_RECORD_BOUND_MS } });
  elsewhere = await openStore({ url });
  const session = (cookie: string | undefined, at: Date, options?: { readonly fresh?: boolean }) => sessionFromCookie({ auth: auth(), store: here }, cookie, at, options);
  site = createSiteServer({
    lanes: [createFastLane({ store: async () => here, session })],
    fallback: (_req, res) => {
      res.writeHead(599);
      res.end();
    },
  });
  base = `http://127.0.0.1:${await site.listen(0, '127.0.0.1')}`;
  const access = createAccessMiddleware({ auth, store: async () => here, now: () => new Date(requestNow ?? Date.now()) });
  view = async (path, cookie) => {
    const { context } = apiContext(path, { cookies: { [SESSION_COOKIE]: cookie } });
    return (await access(context, async () => new Response('page', { status: 200 }))) as Response;
  };
});

afterAll(async () => {
  vi.useRealTimers();
  await site?.stop({ drainMs: 1000, closers: [] });
  await here?.close();
  await elsewhere?.close();
});

const inAYear = () => new Date(Date.now() + 365 * DAY_MS).toISOString();
const recordOf = (uid: string, email: string, extra: Partial<UserRecord> = {}): UserRecord => ({ uid, displayName: `User ${uid}`, email, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra });

/** A user of the suite's store and the session the gate would make for them (as locals). */
async function person(prefix: string, extra: Partial<UserRecord> = {}): Promise<Session> {
  const email = uniqueEmail(prefix);
  const uid = `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
  const record = recordOf(uid, email, extra);
  await shared.createUser(record);
  return { uid, email, record, entitlement: extra.subscribed ? 'full' : 'none', inTrial: false };
}

function context(path: string, session: Session | null, init: { body?: unknown; origin?: string | null; params?: Record<string, string>; contentType?: string; method?: string } = {}): APIContext {
  const url = new URL(path, ORIGIN);
  const headers: Record<string, string> = { 'Content-Type': init.contentType ?? 'application/json' };
  if (init.origin !== null) headers['Origin'] = init.origin ?? ORIGIN;
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const request = new Request(url, { method, headers, ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}) });
  return { request, url, params: init.params ?? {}, locals: { session }, site: new URL(ORIGIN) } as unknown as APIContext;
}

interface Answer {
  readonly status: number;
  readonly json: { error?: { code: string; message: string; field?: string }; seat?: { id: string; email: string; state: string }; mailed?: boolean; team?: { used: number; total: number; seats: { id: string; email: string; state: string }[] } | null };
}
const answer = async (response: Response): Promise<Answer> => ({ status: response.status, json: (await response.json()) as Answer['json'] });
const invite = async (owner: Session | null, body: unknown, init: { origin?: string | null; contentType?: string } = {}) => answer(await seats.POST(context('/api/account/seats', owner, { body, ...init })));
const team = async (owner: Session) => (await answer(await seats.GET(context('/api/account/seats', owner)))).json.team;
const act = async (route: APIRoute, action: string, owner: Session | null, id: string, body: unknown = {}) => answer(await route(context(`/api/account/seats/${id}/${action}`, owner, { body, params: { id } })));
const acceptAs = async (session: Session | null, body: unknown) => answer(await accept(context('/api/account/seats/accept', session, { body })));

/** The invitation link's token in the newest mail to `to` (parsed as a mail client would). */
async function tokenMailedTo(to: string): Promise<string> {
  const mail = (await outboxMessages(500)).find((m) => m.to === to);
  expect(mail, `a mail to ${to}`).toBeDefined();
  const parsed = await simpleParser((await outboxMessage(mail!.file))!);
  expect(parsed.subject).toMatch(/invites you to their PolyIndex Platinum plan$/);
  const link = /\/account\/join\?invite=([^\s"<>]+)/.exec(parsed.text ?? '')?.[1];
  expect(link).toBeDefined();
  return decodeURIComponent(link!);
}

describe('who may use the endpoints', () => {
  it('a visitor gets 401 from each; a POST from another site or without an Origin gets 403; a plan without seats, a lapsed one or a seat-holder cannot invite', async () => {
    expect((await invite(null, { email: 'a@firm.test' })).status).toBe(401);
    expect((await act(remove, 'remove', null, 'a'.repeat(16))).status).toBe(401);
    expect((await act(reinvite, 'reinvite', null, 'a'.repeat(16))).status).toBe(401);
    expect((await acceptAs(null, { token: 'x' })).status).toBe(401);
    const owner = await person('origin', { subscribed: true, plan: 'Platinum', expiresAt: inAYear() });
    expect((await invite(owner, { email: 'a@firm.test' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await invite(owner, { email: 'a@firm.test' }, { origin: null })).status).toBe(403);
    for (const plan of [{ subscribed: true, plan: 'Premium', expiresAt: inAYear() }, { subscribed: true, plan: 'Platinum', expiresAt: new Date(Date.now() - 1000).toISOString() }, { subscribed: false }]) {
      const other = await person('noseats', plan);
      const refused = await invite(other, { email: 'a@firm.test' });
      expect(refused.status).toBe(403);
      expect(refused.json.error).toMatchObject({ code: 'not_seat_owner', message: expect.stringContaining('Platinum') });
    }
    const holder: Session = { ...(await person('holder')), seat: { ownerUid: owner.uid, ownerEmail: owner.email, owner: owner.record } };
    expect((await invite(holder, { email: 'b@firm.test' })).json.error?.code).toBe('not_seat_owner');
    expect(await team(owner)).toMatchObject({ used: 1, total: 5, seats: [] });
  });
});

describe('bad input: a clear 400 with the field, nothing written', () => {
  it('the invitation', async () => {
    const owner = await person('bad', { subscribed: true, plan: 'Platinum', expiresAt: inAYear() });
    const cases: [unknown, number, string, string | undefined][] = [
      [{}, 400, 'invalid_input', 'email'],
      [{ email: '' }, 400, 'invalid_input', 'email'],
      [{ email: 'not an address' }, 400, 'invalid_input', 'email'],
      [{ email: 'a@b' }, 400, 'invalid_input', 'email'],
      [{ email: 42 }, 400, 'invalid_input', 'email'],
      [{ email: `${'x'.repeat(250)}@firm.test` }, 400, 'invalid_input', 'email'],
      [{ email: owner.email!.toUpperCase() }, 400, 'own_address', 'email'],
      ['{"email":', 400, 'invalid_body', undefined],
      [[], 400, 'invalid_input', undefined],
    ];
    for (const [body, status, code, field] of cases) {
      const refused = await invite(owner, body);
      expect(refused.status, JSON.stringify(body)).toBe(status);
      expect(refused.json.error, JSON.stringify(body)).toEqual(field === undefined ? { code, message: expect.any(String) } : { code, message: expect.any(String), field });
    }
    expect((await invite(owner, 'email=a@firm.test', { contentType: 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await team(owner))?.seats).toEqual([]);
  });

  it('re-send, remove and accept', async () => {
    const owner = await person('badid', { subscribed: true, plan: 'Platinum', expiresAt: inAYear() });
    const invited = await invite(owner, { email: uniqueEmail('kept') });
    expect(invited.status).toBe(201);
    for (const route of [[reinvite, 'reinvite'], [remove, 'remove']] as const) {
      expect((await act(route[0], route[1], owner, 'NOT-AN-ID')).json.error).toMatchObject({ code: 'invalid_input', field: 'id' });
      expect((await act(route[0], route[1], owner, 'a'.repeat(17))).status).toBe(400);
      expect((await act(route[0], route[1], owner, invited.json.seat!.id, { extra: 1 })).status).toBe(400);
      expect((await act(route[0], route[1], owner, 'nosuchseat000000')).json.error).toMatchObject({ code: 'no_such_seat', field: 'id' });
    }
    // Another owner cannot touch this seat.
    const stranger = await person('stranger', { subscribed: true, plan: 'Platinum', expiresAt: inAYear() });
    expect((await act(remove, 'remove', stranger, invited.json.seat!.id)).status).toBe(404);
    expect((await act(reinvite, 'reinvite', stranger, invited.json.seat!.id)).status).toBe(404);
    const someone = await person('someone');
    for (const [body, field] of [[{}, 'token'], [{ token: 5 }, 'token'], [{ token: 'x'.repeat(201) }, 'token'], [{ token: 'abc.def' }, 'token']] as const) {
      const refused = await acceptAs(someone, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json.error?.field).toBe(field);
    }
    expect((await acceptAs(someone, { token: `${invited.json.seat!.id}.${'A'.repeat(43)}` })).json.error).toMatchObject({ code: 'invitation_not_found', field: 'token' });
    expect((await team(owner))?.seats.map((s) => s.state)).toEqual(['invited']);
    expect((await shared.findUserBy('uid', someone.uid))?.[SEAT_FIELD]).toBeUndefined();
  });
});

describe('inviting, accepting, re-sending, removing', () => {
  it('an owner invites up to the plan\'s seats; the link is for the invited address, until it expires; a re-sent link replaces it', async () => {
    const owner = await person('owner', { subscribed: true, plan: 'Platinum', expiresAt: inAYear() });
    const colleague = await person('colleague');
    const first = await invite(owner, { email: `  ${colleague.email!.toUpperCase()} ` });
    expect(first).toMatchObject({ status: 201, json: { seat: { email: colleague.email, state: 'invited' }, mailed: true } });
    expect((await invite(owner, { email: colleague.email })).json.error).toMatchObject({ code: 'already_invited', field: 'email' });
    for (let i = 0; i < 3; i++) expect((await invite(owner, { email: uniqueEmail(`more${i}`) })).status).toBe(201);
    const over = await invite(owner, { email: uniqueEmail('fifth') });
    expect(over).toMatchObject({ status: 409, json: { error: { code: 'no_seat_left', field: 'email' } } });
    expect(await team(owner)).toMatchObject({ used: 5, total: 5 });

    const token = await tokenMailedTo(colleague.email!);
    // Someone else signed in cannot use it.
    const other = await person('other');
    expect((await acceptAs(other, { token })).json.error).toMatchObject({ code: 'wrong_address', message: expect.stringContaining(colleague.email!) });
    // Past its expiry the link is refused.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 8 * DAY_MS });
    expect((await acceptAs(colleague, { token })).status).toBe(410);
    vi.useRealTimers();
    // Re-sent: the first link stops working, the new one is accepted.
    expect((await act(reinvite, 'reinvite', owner, first.json.seat!.id)).json).toMatchObject({ seat: { state: 'invited' }, mailed: true });
    const resent = await tokenMailedTo(colleague.email!);
    expect(resent).not.toBe(token);
    expect((await acceptAs(colleague, { token })).status).toBe(404);
    expect(await acceptAs(colleague, { token: resent })).toMatchObject({ status: 200, json: { seat: { ownerEmail: owner.email, plan: 'Platinum' } } });
    expect((await team(owner))?.seats.find((s) => s.email === colleague.email)?.state).toBe('held');
    expect((await act(reinvite, 'reinvite', owner, first.json.seat!.id)).json.error?.code).toBe('seat_held');
    // Audited like other account changes.
    const { entries } = await shared.listAudit({ target: `seat:${first.json.seat!.id}` });
    expect(entries.map((e) => e.action)).toEqual(['seat.accept', 'seat.reinvite', 'seat.invite']);
    // Revoking an invitation frees its seat.
    const pending = (await team(owner))!.seats.find((s) => s.state === 'invited')!;
    expect((await act(remove, 'remove', owner, pending.id)).status).toBe(200);
    expect((await invite(owner, { email: uniqueEmail('sixth') })).status).toBe(201);
  });
});

describe('removal counts on every instance at the colleague\'s next request', () => {
  it('the colleague reads Premium data through the seat in both lanes; removed on another instance, the next request is refused', async () => {
    const ownerEmail = uniqueEmail('teamowner');
    const ownerAccount = await emulatorSignUp(ownerEmail);
    await elsewhere.createUser(recordOf(ownerAccount.uid, ownerEmail, { subscribed: true, plan: 'Platinum', expiresAt: inAYear() }));
    const colleagueEmail = uniqueEmail('teammate');
    const colleagueAccount = await emulatorSignUp(colleagueEmail);
    await elsewhere.createUser(recordOf(colleagueAccount.uid, colleagueEmail));
    const cookie = (await startSession(auth(), colleagueAccount.idToken)).cookie;
    const fast = (path: string) => fetch(`${base}${path}`, { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });

    expect((await fast(FEEDSTOCK)).status).toBe(403);
    const ownerSession: Session = { uid: ownerAccount.uid, email: ownerEmail, record: (await elsewhere.findUserBy('uid', ownerAccount.uid))!, entitlement: 'full', inTrial: false };
    const invited = await invite(ownerSession, { email: colleagueEmail });
    const colleagueSession: Session = { uid: colleagueAccount.uid, email: colleagueEmail, record: (await elsewhere.findUserBy('uid', colleagueAccount.uid))!, entitlement: 'none', inTrial: false };
    expect((await acceptAs(colleagueSession, { token: await tokenMailedTo(colleagueEmail) })).status).toBe(200);

    expect((await fast(FEEDSTOCK)).status).toBe(200);
    expect((await view('/crude/Naphtha', cookie)).status).toBe(200);
    // This instance's copy of the colleague's record names the seat (its cache clock never moves)…
    expect((await here.cachedUser(colleagueAccount.uid))?.[SEAT_FIELD]).toBe(invited.json.seat!.id);
    // …and the owner removes the seat on the other instance.
    expect(await elsewhere.removeSeat(ownerAccount.uid, invited.json.seat!.id, { uid: ownerAccount.uid, email: ownerEmail }, new Date())).not.toBeNull();
    expect((await fast(FEEDSTOCK)).status).toBe(403);
    expect((await view('/crude/Naphtha', cookie)).headers.get('Location')).toBe('/subscription?locked=feedstock');
  });

  it('scheduled messages (the daily update, alerts, the price bot) judge a colleague by the seat, and stop with it', async () => {
    const owner = await person('deliveryowner', { subscribed: true, plan: 'Platinum', expiresAt: inAYear() });
    const colleague = await person('deliverymate');
    const invited = await invite(owner, { email: colleague.email });
    expect((await acceptAs(colleague, { token: await tokenMailedTo(colleague.email!) })).status).toBe(200);
    const rightsNow = async () => deliveryRightsOf(await subscriberOf(elsewhere, (await elsewhere.findUserBy('uid', colleague.uid))!), new Date());
    expect(await rightsNow()).toMatchObject({ dailyUpdate: true, alerts: true, priceBot: true, dailyChoices: 'all' });
    expect((await act(remove, 'remove', owner, invited.json.seat!.id)).status).toBe(200);
    expect(await rightsNow()).toMatchObject({ dailyUpdate: false, alerts: false, priceBot: false });
  });

  it('the owner\'s plan ends the seat too: at its instant, and a revocation on another instance within the user records\' bound', async () => {
    const seated = async (ownerExtra: Partial<UserRecord>) => {
      const owner = await person('lapsing', { subscribed: true, plan: 'Platinum', ...ownerExtra });
      const email = uniqueEmail('seated');
      const account = await emulatorSignUp(email);
      await shared.createUser(recordOf(account.uid, email));
      await invite(owner, { email });
      expect((await acceptAs({ uid: account.uid, email, record: (await shared.findUserBy('uid', account.uid))!, entitlement: 'none', inTrial: false }, { token: await tokenMailedTo(email) })).status).toBe(200);
      return { owner, cookie: (await startSession(auth(), account.idToken)).cookie };
    };
    const expiresAt = Date.now() + 60_000;
    const lapsing = await seated({ expiresAt: new Date(expiresAt).toISOString() });
    expect((await view('/crude/Naphtha', lapsing.cookie)).status).toBe(200);
    requestNow = expiresAt;
    expect((await view('/crude/Naphtha', lapsing.cookie)).headers.get('Location')).toBe('/subscription?locked=feedstock');
    requestNow = null;

    const revoked = await seated({ expiresAt: inAYear() });
    expect((await view('/crude/Naphtha', revoked.cookie)).status).toBe(200);
    await elsewhere.updateUsersBy('uid', revoked.owner.uid, { subscribed: false });
    cacheClock += USER_RECORD_BOUND_MS;
    expect((await view('/crude/Naphtha', revoked.cookie)).headers.get('Location')).toBe('/subscription?locked=feedstock');
  });
});
