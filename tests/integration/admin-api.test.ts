/**
 * The admin endpoints, called through their exported handlers (and through the real access
 * middleware with real emulator cookies), against the real SQLite store of the test DATA_DIR.
 * Every write must change the record and add exactly one audit entry, or change nothing.
 */
import type { APIContext, APIRoute } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
import { onRequest } from '../../src/middleware.ts';
import { GET as auditApi } from '../../src/pages/api/admin/audit.ts';
import { POST as extend } from '../../src/pages/api/admin/users/[uid]/extend.ts';
import { POST as grant } from '../../src/pages/api/admin/users/[uid]/grant.ts';
import { POST as revoke } from '../../src/pages/api/admin/users/[uid]/revoke.ts';
import { POST as role } from '../../src/pages/api/admin/users/[uid]/role.ts';
import { GET as usersApi } from '../../src/pages/api/admin/users/index.ts';
import { POST as signInEndpoint } from '../../src/pages/api/auth/session.ts';
import { endOfIndianDay } from '../../src/lib/admin/planChanges.ts';
import { addDays, isoDateOf } from '../../src/lib/dates.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { SESSION_COOKIE } from '../../src/server/auth/sessions.ts';
import { store } from '../../src/server/runtime.ts';
import { userTarget } from '../../src/server/store/audit.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { apiContext, emulatorSignUp, uniqueEmail, sessionOf } from './helpers.ts';

const ORIGIN = 'http://127.0.0.1:4321';
const DAY = 86_400_000;
let db: Store;
let seq = 0;

beforeAll(async () => {
  db = await store();
});

const uniqueUid = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

async function createUser(prefix: string, extra: Partial<UserRecord> = {}): Promise<UserRecord> {
  const uid = uniqueUid(prefix);
  const record: UserRecord = {
    uid,
    displayName: `User ${uid}`,
    email: `${uid}@example.test`,
    phone: null,
    photoURL: null,
    role: 'user',
    subscribed: false,
    plan: null,
    createdAt: '01-01-2026',
    favouriteGrade: 'PP raffia', // unknown field: survives every admin change
    ...extra,
  };
  expect(await db.createUser(record)).toBe(true);
  return record;
}


let admin: UserRecord;
beforeAll(async () => {
  admin = await createUser('admin', { role: 'admin', email: `Admin-${Date.now()}@Example.test` });
});

interface CallOptions {
  readonly session?: Session | null;
  readonly origin?: string | null;
  readonly contentType?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Answer = { status: number; json: any };

async function post(route: APIRoute, uid: string, action: string, body: unknown, options: CallOptions = {}): Promise<Answer> {
  const url = new URL(`/api/admin/users/${encodeURIComponent(uid)}/${action}`, ORIGIN);
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin !== null) headers['origin'] = origin;
  const request = new Request(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const context = { request, url, params: { uid }, locals: { session: options.session === undefined ? sessionOf(admin) : options.session } } as unknown as APIContext;
  const response = await route(context);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return { status: response.status, json: await response.json() };
}

async function get(route: APIRoute, path: string, session: Session | null): Promise<Answer> {
  const url = new URL(path, ORIGIN);
  const context = { request: new Request(url), url, params: {}, locals: { session } } as unknown as APIContext;
  const response = await route(context);
  return { status: response.status, json: await response.json() };
}

const auditOf = async (uid: string) => (await db.listAudit({ target: userTarget(uid), pageSize: 200 })).entries;

/** Runs `work` and asserts that neither the record nor its audit trail changed. */
async function expectNothingWritten(uid: string, work: () => Promise<Answer>): Promise<Answer> {
  const before = await db.findUserBy('uid', uid);
  const entries = (await auditOf(uid)).length;
  const total = (await db.listAudit()).total;
  const answer = await work();
  expect(await db.findUserBy('uid', uid)).toEqual(before);
  expect((await auditOf(uid)).length).toBe(entries);
  expect((await db.listAudit()).total).toBe(total);
  return answer;
}

const WRITES: readonly [string, APIRoute, unknown][] = [
  ['role', role, { role: 'admin' }],
  ['grant', grant, { plan: 'Premium' }],
  ['extend', extend, { days: 30 }],
  ['revoke', revoke, {}],
];

describe('admin endpoints refuse everyone but administrators (the guard, called directly)', () => {
  it.each(WRITES)('POST …/%s: anonymous 401; premium, basic, free 403; nothing written', async (action, route, body) => {
    const target = await createUser('target', { subscribed: true, plan: 'Basic', expiresAt: new Date(Date.now() + 100 * DAY).toISOString() });
    const premium = await createUser('premium', { subscribed: true, plan: 'Premium', expiresAt: new Date(Date.now() + 100 * DAY).toISOString() });
    const basic = await createUser('basic', { subscribed: true, plan: 'Basic', expiresAt: new Date(Date.now() + 100 * DAY).toISOString() });
    const free = await createUser('free');
    const anonymous = await expectNothingWritten(target.uid, () => post(route, target.uid, action, body, { session: null }));
    expect(anonymous).toMatchObject({ status: 401, json: { error: { code: 'unauthenticated' } } });
    for (const [user, entitlement] of [[premium, 'full'], [basic, 'limited'], [free, 'none']] as const) {
      const answer = await expectNothingWritten(target.uid, () => post(route, target.uid, action, body, { session: sessionOf(user, entitlement) }));
      expect(answer).toMatchObject({ status: 403, json: { error: { code: 'forbidden' } } });
    }
    // A session whose derived entitlement claims admin, but whose record is not an admin's.
    const forged = await expectNothingWritten(target.uid, () => post(route, target.uid, action, body, { session: { ...sessionOf(free), entitlement: 'admin' } }));
    expect(forged.status).toBe(403);
  });

  it('the read endpoints too', async () => {
    const free = await createUser('free');
    for (const [route, path] of [[auditApi, '/api/admin/audit'], [usersApi, '/api/admin/users?q=x']] as const) {
      expect((await get(route, path, null)).status).toBe(401);
      expect((await get(route, path, sessionOf(free, 'full'))).status).toBe(403);
      expect((await get(route, path, sessionOf(admin))).status).toBe(200);
    }
  });

  it('refuses an admin’s write from another site, or without Origin and Referer', async () => {
    const target = await createUser('xsite');
    for (const origin of ['https://evil.example', null]) {
      const answer = await expectNothingWritten(target.uid, () => post(role, target.uid, 'role', { role: 'admin' }, { origin }));
      expect(answer).toMatchObject({ status: 403, json: { error: { code: 'cross_origin' } } });
    }
  });
});

describe('admin endpoints through the real middleware and emulator cookies', () => {
  async function signedIn(state: Partial<UserRecord>): Promise<string> {
    const { idToken, uid } = await emulatorSignUp(uniqueEmail('mw'));
    const { context, set } = apiContext('/api/auth/session', { method: 'POST', headers: { Origin: ORIGIN, 'Content-Type': 'application/json' }, body: JSON.stringify({ idToken }) });
    expect((await signInEndpoint(context)).status).toBe(200);
    await db.updateUsersBy('uid', uid, state);
    return set[SESSION_COOKIE]!.value;
  }

  const through = async (cookie: string | undefined, uid: string) => {
    const path = `/api/admin/users/${uid}/grant`;
    const { context } = apiContext(path, {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ plan: 'Platinum' }),
      params: { uid },
      routePattern: '/api/admin/users/[uid]/grant',
      ...(cookie ? { cookies: { [SESSION_COOKIE]: cookie } } : {}),
    });
    return (await onRequest(context, async () => grant(context))) as Response;
  };

  it('anonymous 401, premium / basic / free 403, admin 200', async () => {
    const target = await createUser('mw-target');
    const future = new Date(Date.now() + 100 * DAY).toISOString();
    expect((await through(undefined, target.uid)).status).toBe(401);
    for (const state of [
      { subscribed: true, plan: 'Premium', expiresAt: future },
      { subscribed: true, plan: 'Basic', expiresAt: future },
      { createdAt: '01-01-2020' },
    ]) {
      const response = await through(await signedIn(state), target.uid);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'forbidden' } });
    }
    expect((await db.findUserBy('uid', target.uid))?.subscribed).toBe(false);
    const ok = await through(await signedIn({ role: 'admin' }), target.uid);
    expect(ok.status).toBe(200);
    expect(await db.findUserBy('uid', target.uid)).toMatchObject({ subscribed: true, plan: 'Platinum' });
  });
});

describe('good changes: the record and one audit entry, together', () => {
  it('grants a plan until the chosen day and records who did it, old → new', async () => {
    const user = await createUser('grant');
    const until = addDays(isoDateOf(new Date()), 90);
    const answer = await post(grant, user.uid, 'grant', { plan: 'premium', expiresOn: until });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ changed: true, user: { uid: user.uid, subscribed: true, plan: 'Premium' } });
    const stored = await db.findUserBy('uid', user.uid);
    expect(stored).toMatchObject({ subscribed: true, plan: 'Premium', expiresAt: endOfIndianDay(until).toISOString(), favouriteGrade: 'PP raffia' });
    const entries = await auditOf(user.uid);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      id: answer.json.auditId,
      action: 'user.grant',
      target: `user:${user.uid}`,
      actor: { uid: admin.uid, email: admin.email!.toLowerCase() },
      before: { subscribed: false, plan: null },
      after: { subscribed: true, plan: 'Premium', expiresAt: endOfIndianDay(until).toISOString() },
    });
    expect(Date.now() - Date.parse(entries[0]!.at)).toBeLessThan(60_000);
  });

  it('grants for the plan duration when no date is given', async () => {
    const user = await createUser('grant-default');
    const t0 = Date.now();
    expect((await post(grant, user.uid, 'grant', { plan: 'Basic', expiresOn: '' })).status).toBe(200);
    const expires = Date.parse(String((await db.findUserBy('uid', user.uid))?.expiresAt));
    expect(expires - t0).toBeGreaterThanOrEqual(365 * DAY);
    expect(expires - t0).toBeLessThan(365 * DAY + 60_000);
  });

  it('extends by days from the current expiry, or to a date; revokes keeping lastPlan', async () => {
    const expiresAt = new Date(Date.now() + 10 * DAY).toISOString();
    const user = await createUser('extend', { subscribed: true, plan: 'Standard', expiresAt });
    expect((await post(extend, user.uid, 'extend', { days: '30' })).status).toBe(200);
    expect((await db.findUserBy('uid', user.uid))?.expiresAt).toBe(new Date(Date.parse(expiresAt) + 30 * DAY).toISOString());
    const until = addDays(isoDateOf(new Date()), 200);
    expect((await post(extend, user.uid, 'extend', { until })).status).toBe(200);
    expect((await db.findUserBy('uid', user.uid))?.expiresAt).toBe(endOfIndianDay(until).toISOString());
    const revoked = await post(revoke, user.uid, 'revoke', {});
    expect(revoked.status).toBe(200);
    const stored = await db.findUserBy('uid', user.uid);
    expect(stored).toMatchObject({ subscribed: false, plan: null, lastPlan: 'Standard', favouriteGrade: 'PP raffia' });
    expect(Date.parse(String(stored?.expiresAt))).toBeLessThanOrEqual(Date.now());
    expect((await auditOf(user.uid)).map((e) => e.action)).toEqual(['user.revoke', 'user.extend', 'user.extend']);
  });

  it('sets the role both ways; the same role again writes nothing', async () => {
    const user = await createUser('role');
    expect((await post(role, user.uid, 'role', { role: 'admin' })).json).toMatchObject({ changed: true, user: { role: 'admin' } });
    const again = await expectNothingWritten(user.uid, () => post(role, user.uid, 'role', { role: 'admin' }));
    expect(again).toMatchObject({ status: 200, json: { changed: false } });
    expect((await post(role, user.uid, 'role', { role: 'user' })).status).toBe(200);
    expect((await db.findUserBy('uid', user.uid))?.role).toBe('user');
    expect((await auditOf(user.uid)).map((e) => [e.action, e.before?.['role'], e.after?.['role']])).toEqual([
      ['user.role', 'admin', 'user'],
      ['user.role', 'user', 'admin'],
    ]);
  });

  it('grants the editor role and takes it back (the newsroom’s role), audited', async () => {
    const user = await createUser('editor-role');
    expect((await post(role, user.uid, 'role', { role: 'editor' })).json).toMatchObject({ changed: true, user: { role: 'editor' } });
    expect((await db.findUserBy('uid', user.uid))?.role).toBe('editor');
    expect((await post(role, user.uid, 'role', { role: 'user' })).status).toBe(200);
    expect((await db.findUserBy('uid', user.uid))?.role).toBe('user');
    const bad = await expectNothingWritten(user.uid, () => post(role, user.uid, 'role', { role: 'owner' }));
    expect(bad).toMatchObject({ status: 400, json: { error: { field: 'role' } } });
    expect((await auditOf(user.uid)).map((e) => [e.action, e.before?.['role'], e.after?.['role']])).toEqual([
      ['user.role', 'editor', 'user'],
      ['user.role', 'user', 'editor'],
    ]);
  });

  it('two concurrent extends both land, the second from the first’s result', async () => {
    const expiresAt = new Date(Date.now() + 5 * DAY).toISOString();
    const user = await createUser('race', { subscribed: true, plan: 'Premium', expiresAt });
    const answers = await Promise.all([post(extend, user.uid, 'extend', { days: 7 }), post(extend, user.uid, 'extend', { days: 11 })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await db.findUserBy('uid', user.uid))?.expiresAt).toBe(new Date(Date.parse(expiresAt) + 18 * DAY).toISOString());
    const [second, first] = await auditOf(user.uid);
    expect(second!.before?.['expiresAt']).toBe(first!.after?.['expiresAt']);
  });
});

describe('bad input writes nothing', () => {
  const future = () => new Date(Date.now() + 50 * DAY).toISOString();
  const yesterday = () => addDays(isoDateOf(new Date()), -1);

  const cases: readonly [string, APIRoute, string, () => unknown, number, string | undefined][] = [
    ['unknown plan', grant, 'grant', () => ({ plan: 'Gold' }), 400, 'plan'],
    ['missing plan', grant, 'grant', () => ({}), 400, 'plan'],
    ['impossible date', grant, 'grant', () => ({ plan: 'Premium', expiresOn: '2027-02-30' }), 400, 'expiresOn'],
    ['date in another form', grant, 'grant', () => ({ plan: 'Premium', expiresOn: '30-01-2027' }), 400, 'expiresOn'],
    ['expiry in the past', grant, 'grant', () => ({ plan: 'Premium', expiresOn: yesterday() }), 400, 'expiresOn'],
    ['expiry beyond ten years', grant, 'grant', () => ({ plan: 'Premium', expiresOn: '2099-01-01' }), 400, 'expiresOn'],
    ['negative days', extend, 'extend', () => ({ days: -3 }), 400, 'days'],
    ['zero days', extend, 'extend', () => ({ days: '0' }), 400, 'days'],
    ['fractional days', extend, 'extend', () => ({ days: 1.5 }), 400, 'days'],
    ['days as words', extend, 'extend', () => ({ days: 'ten' }), 400, 'days'],
    ['days and a date', extend, 'extend', () => ({ days: 3, until: '2030-01-01' }), 400, 'days'],
    ['neither days nor date', extend, 'extend', () => ({}), 400, 'days'],
    ['extend to an earlier date', extend, 'extend', () => ({ until: isoDateOf(new Date(Date.now() + 2 * DAY)) }), 400, 'until'],
    ['role other than admin or user', role, 'role', () => ({ role: 'superuser' }), 400, 'role'],
    ['role missing', role, 'role', () => ({}), 400, 'role'],
    ['revoke with a body', revoke, 'revoke', () => ({ now: true }), 400, undefined],
    ['not JSON', grant, 'grant', () => 'plan=Premium', 400, undefined],
  ];

  it.each(cases)('%s → %i naming the field', async (_name, route, action, body, status, field) => {
    const user = await createUser('bad', { subscribed: true, plan: 'Basic', expiresAt: future() });
    const answer = await expectNothingWritten(user.uid, () => post(route, user.uid, action, body()));
    expect(answer.status).toBe(status);
    expect(answer.json.error.message).toEqual(expect.any(String));
    if (field) expect(answer.json.error.field).toBe(field);
  });

  it('a form-encoded body is refused unread (JSON only: 415)', async () => {
    const user = await createUser('form');
    const answer = await expectNothingWritten(user.uid, () => post(grant, user.uid, 'grant', 'plan=Premium', { contentType: 'application/x-www-form-urlencoded' }));
    expect(answer).toMatchObject({ status: 415, json: { error: { code: 'unsupported_media_type' } } });
  });

  it('an admin cannot remove their own admin role', async () => {
    const answer = await expectNothingWritten(admin.uid, () => post(role, admin.uid, 'role', { role: 'user' }));
    expect(answer).toMatchObject({ status: 400, json: { error: { code: 'own_admin_role', field: 'role' } } });
    expect(answer.json.error.message).toMatch(/own admin role/);
  });

  it('an unknown uid is a 404', async () => {
    const total = (await db.listAudit()).total;
    for (const [action, route, body] of WRITES) {
      const answer = await post(route, 'no-such-user', action, body);
      expect(answer).toMatchObject({ status: 404, json: { error: { code: 'unknown_user' } } });
    }
    expect((await db.listAudit()).total).toBe(total);
  });

  it('extending or revoking without a plan is a 409', async () => {
    const user = await createUser('noplan');
    for (const [action, route, body] of [['extend', extend, { days: 3 }], ['revoke', revoke, {}]] as const) {
      const answer = await expectNothingWritten(user.uid, () => post(route, user.uid, action, body));
      expect(answer).toMatchObject({ status: 409, json: { error: { code: 'no_plan' } } });
    }
  });
});

describe('the audit API', () => {
  it('lists newest first, paged, filtered by target or actor', async () => {
    const user = await createUser('paged', { subscribed: true, plan: 'Premium', expiresAt: new Date(Date.now() + DAY).toISOString() });
    for (let i = 0; i < 3; i += 1) expect((await post(extend, user.uid, 'extend', { days: 1 })).status).toBe(200);
    const page1 = await get(auditApi, `/api/admin/audit?target=${encodeURIComponent(`user:${user.uid}`)}&pageSize=2`, sessionOf(admin));
    expect(page1.json).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page1.json.entries).toHaveLength(2);
    const page2 = await get(auditApi, `/api/admin/audit?target=${encodeURIComponent(`user:${user.uid}`)}&pageSize=2&page=2`, sessionOf(admin));
    expect(page2.json.entries).toHaveLength(1);
    const ids = [...page1.json.entries, ...page2.json.entries].map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const byActor = await get(auditApi, `/api/admin/audit?actor=${encodeURIComponent(admin.email!.toUpperCase())}&pageSize=200`, sessionOf(admin));
    expect(byActor.json.entries.every((e: { actor: { uid: string } }) => e.actor.uid === admin.uid)).toBe(true);
    expect(byActor.json.total).toBeGreaterThanOrEqual(3);
    const junk = await get(auditApi, '/api/admin/audit?page=-4&pageSize=abc', sessionOf(admin));
    expect(junk.json).toMatchObject({ page: 1, pageSize: 50 });
  });

  it('finds users by e-mail fragment, phone or uid', async () => {
    const user = await createUser('findme', { phone: '+919812345678' });
    const find = async (q: string) => (await get(usersApi, `/api/admin/users?q=${encodeURIComponent(q)}`, sessionOf(admin))).json.users.map((u: { uid: string }) => u.uid);
    expect(await find(user.uid)).toEqual([user.uid]);
    expect(await find(user.email!.toUpperCase())).toEqual([user.uid]);
    expect(await find('98123 45678')).toContain(user.uid);
    expect(await find('%')).not.toContain(user.uid);
  });
});
