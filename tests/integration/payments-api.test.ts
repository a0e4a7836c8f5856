/**
 * The payment endpoints, called through their exported POST handlers with constructed
 * contexts, against a real SQLite file in a temp dir and the real sandbox gateway (and the
 * real Razorpay adapter against a fake server on loopback for the 502 path).
 */
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as makePayment } from '../../src/pages/api/makePayment.ts';
import { POST as sandboxComplete } from '../../src/pages/api/payments/sandbox/complete.ts';
import { POST as verify } from '../../src/pages/api/payments/verify.ts';
import { POST as webhook } from '../../src/pages/api/payments/webhook.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { usePaymentsRuntime, type PaymentsRuntime } from '../../src/server/payments/index.ts';
import { createRazorpayGateway } from '../../src/server/payments/razorpay.ts';
import { createSandboxGateway } from '../../src/server/payments/sandbox.ts';
import { openStore, type Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';

const ORIGIN = 'http://127.0.0.1:4321';
const SECRET = 'sandbox-secret-for-tests';
const DAY = 86_400_000;

let dir: string;
let store: Store;
let clock: Date;
let sandbox: PaymentsRuntime;

const record = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid,
  displayName: `User ${uid}`,
  email: `${uid}@example.test`,
  phone: '+919800000000',
  photoURL: null,
  role: 'user',
  subscribed: false,
  plan: null,
  createdAt: '01-01-2026',
  favouriteGrade: 'PP raffia', // an unknown field: must survive the grant
  ...extra,
});

async function sessionOf(uid: string): Promise<Session> {
  const rec = await store.findUserBy('uid', uid);
  return { uid, email: `${uid}@example.test`, record: rec, entitlement: 'none', inTrial: false };
}

interface CallOptions {
  readonly session?: Session | null;
  readonly origin?: string | null;
  readonly headers?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
async function call(route: APIRoute, path: string, body: unknown, options: CallOptions = {}): Promise<{ status: number; json: any }> {
  const url = new URL(path, ORIGIN);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin !== null) headers['origin'] = origin;
  const request = new Request(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const context = { request, url, params: {}, locals: { session: options.session ?? null }, site: new URL(ORIGIN) } as unknown as APIContext;
  const response = await route(context);
  const text = await response.text();
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

const signWebhook = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');

async function sendWebhook(payload: unknown, { eventId, secret }: { eventId?: string; secret?: string } = {}) {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'x-razorpay-signature': signWebhook(body, secret) };
  if (eventId) headers['x-razorpay-event-id'] = eventId;
  return call(webhook, '/api/payments/webhook', body, { headers, origin: null });
}

const paymentEvent = (event: string, orderId: string, paymentId: string, amount: number, extra: Record<string, unknown> = {}) => ({
  entity: 'event',
  account_id: 'acc_test',
  event,
  contains: ['payment'],
  payload: { payment: { entity: { id: paymentId, entity: 'payment', amount, currency: 'INR', order_id: orderId, status: event === 'payment.failed' ? 'failed' : 'captured', ...extra } } },
  created_at: 1_795_000_000,
});

/** A fresh order for `uid` through the real endpoint. */
async function orderFor(uid: string, plan = 'Premium'): Promise<{ id: string; amount: number }> {
  const res = await call(makePayment, '/api/makePayment', { plan }, { session: await sessionOf(uid) });
  expect(res.status).toBe(200);
  return res.json;
}

/** The sandbox dialog's Pay button: the signed checkout result. */
async function pay(uid: string, orderId: string) {
  const res = await call(sandboxComplete, '/api/payments/sandbox/complete', { order_id: orderId, outcome: 'pay' }, { session: await sessionOf(uid) });
  expect(res.status).toBe(200);
  return res.json as { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'polyindex-payments-'));
  store = await openStore({ url: `file:${join(dir, 'test.db')}` });
  sandbox = { store, gateway: createSandboxGateway(SECRET), now: () => clock };
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
let free: string;
let other: string;
beforeEach(async () => {
  clock = new Date('2026-11-22T04:30:00.000Z');
  usePaymentsRuntime(sandbox);
  n += 1;
  free = `free${n}`;
  other = `other${n}`;
  await store.createUser(record(free));
  await store.createUser(record(other));
});

describe('POST /api/makePayment', () => {
  it('creates an order at the plan table price, in paise and INR, and records it as created', async () => {
    const res = await call(makePayment, '/api/makePayment', { plan: 'Premium' }, { session: await sessionOf(free) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ amount: 1_500_000, currency: 'INR', mode: 'sandbox', key: null, plan: 'Premium', name: 'PolyIndex' });
    expect(res.json.id).toMatch(/^order_sbx_/);
    expect(res.json.prefill).toEqual({ name: `User ${free}`, email: `${free}@example.test`, contact: '+919800000000' });
    const order = await store.findOrder(res.json.id);
    expect(order).toMatchObject({ uid: free, plan: 'Premium', amount: 1_500_000, currency: 'INR', status: 'created', paymentId: null });
    expect(order!.receipt.length).toBeLessThanOrEqual(40);
  });

  it('ignores a forged amount: the server price wins', async () => {
    const res = await call(makePayment, '/api/makePayment', { plan: 'Platinum', amount: 1 }, { session: await sessionOf(free) });
    expect(res.status).toBe(200);
    expect(res.json.amount).toBe(2_500_000);
    expect((await store.findOrder(res.json.id))!.amount).toBe(2_500_000);
  });

  it('accepts the legacy {amount} only when it is a plan price in rupees', async () => {
    const ok = await call(makePayment, '/api/makePayment', { amount: 5500 }, { session: await sessionOf(free) });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ plan: 'Basic', amount: 550_000 });
    const bad = await call(makePayment, '/api/makePayment', { amount: 5499 }, { session: await sessionOf(free) });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'unknown_amount', field: 'amount' });
  });

  it('answers 400 for an unknown plan, a bad body or bad JSON — never 500', async () => {
    const session = await sessionOf(free);
    const unknown = await call(makePayment, '/api/makePayment', { plan: 'Gold' }, { session });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: 'unknown_plan', field: 'plan' });
    for (const body of ['{"plan":', 'null', '[]', '"Premium"', '{}', '{"plan":42}', '{"amount":"15000"}', '{"amount":-5}', '']) {
      const res = await call(makePayment, '/api/makePayment', body, { session });
      expect(res.status, body).toBe(400);
      expect(res.json.error.code, body).toMatch(/^invalid_(body|input)$/);
    }
  });

  it('answers 401 to an anonymous visitor and 403 to another origin', async () => {
    const anonymous = await call(makePayment, '/api/makePayment', { plan: 'Premium' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe('unauthenticated');
    const session = await sessionOf(free);
    expect((await call(makePayment, '/api/makePayment', { plan: 'Premium' }, { session, origin: 'https://evil.example' })).status).toBe(403);
    expect((await call(makePayment, '/api/makePayment', { plan: 'Premium' }, { session, origin: null })).status).toBe(403);
  });

  it('answers 409 while the user record does not exist yet', async () => {
    const res = await call(makePayment, '/api/makePayment', { plan: 'Premium' }, { session: { uid: 'ghost', email: null, record: null, entitlement: 'none', inTrial: null } });
    expect(res.status).toBe(409);
  });

  it('turns a Razorpay API error into a clear 502 JSON', async () => {
    const fake: Server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'BAD_REQUEST_ERROR', description: 'The api key provided is invalid' } }));
    });
    fake.listen(0, '127.0.0.1');
    await once(fake, 'listening');
    try {
      const baseUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      usePaymentsRuntime({ store, gateway: createRazorpayGateway({ keyId: 'rzp_test_x', keySecret: 'y', baseUrl, timeoutMs: 30_000 }), now: () => clock });
      const res = await call(makePayment, '/api/makePayment', { plan: 'Basic' }, { session: await sessionOf(free) });
      expect(res.status).toBe(502);
      expect(res.json.error.code).toBe('gateway_error');
      expect(res.json.error.message).toMatch(/api key provided is invalid/);
      // Razorpay mode: the sandbox checkout does not exist.
      expect((await call(sandboxComplete, '/api/payments/sandbox/complete', { order_id: 'order_x', outcome: 'pay' }, { session: await sessionOf(free) })).status).toBe(404);
    } finally {
      fake.close();
    }
  });
});

describe('the real gateway behind the endpoints', () => {
  it('answers 502 with a clear message when Razorpay never answers', async () => {
    const silent: Server = createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      usePaymentsRuntime({ store, gateway: createRazorpayGateway({ keyId: 'rzp_test_x', keySecret: 'y', baseUrl, timeoutMs: 250 }), now: () => clock });
      const res = await call(makePayment, '/api/makePayment', { plan: 'Premium' }, { session: await sessionOf(free) });
      expect(res.status).toBe(502);
      expect(res.json.error).toMatchObject({ code: 'gateway_error' });
      expect(res.json.error.message).toMatch(/did not answer in time/);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('refuses webhooks with 503 while RAZORPAY_WEBHOOK_SECRET is not set', async () => {
    usePaymentsRuntime({ store, gateway: createRazorpayGateway({ keyId: 'rzp_test_x', keySecret: 'y' }), now: () => clock });
    const res = await sendWebhook({ event: 'payment.captured' });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe('webhook_not_configured');
  });
});

describe('POST /api/payments/verify', () => {
  it('sends one receipt per grant, none on a replay', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    try {
      const order = await orderFor(free, 'Standard');
      const result = await pay(free, order.id);
      await call(verify, '/api/payments/verify', result, { session: await sessionOf(free) });
      await call(verify, '/api/payments/verify', result, { session: await sessionOf(free) });
      await sendWebhook(paymentEvent('payment.captured', order.id, result.razorpay_payment_id, order.amount), { eventId: `evt_${n}_rcpt` });
      const receipts = info.mock.calls.map((args) => String(args[0])).filter((line) => line.startsWith('[receipt]'));
      expect(receipts).toHaveLength(1);
      expect(receipts[0]).toContain(`to=${free}@example.test`);
      expect(receipts[0]).toContain('plan=Standard');
      expect(receipts[0]).toContain('₹10,000');
      expect(receipts[0]).toContain(order.id);
    } finally {
      info.mockRestore();
    }
  });

  it('grants the plan on a good payment: one transaction on the user record and the order', async () => {
    const order = await orderFor(free, 'Premium');
    const result = await pay(free, order.id);
    const res = await call(verify, '/api/payments/verify', result, { session: await sessionOf(free) });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('granted');
    const expected = {
      uid: free,
      subscribed: true,
      plan: 'Premium',
      subscriptionAmount: 15_000,
      paymentId: result.razorpay_payment_id,
      orderId: order.id,
      signature: result.razorpay_signature,
      subscribedAt: '2026-11-22T04:30:00.000Z',
      expiresAt: '2027-11-22T04:30:00.000Z',
      favouriteGrade: 'PP raffia',
    };
    expect(res.json.user).toMatchObject(expected);
    expect(await store.findUserBy('uid', free)).toMatchObject(expected);
    expect(await store.findOrder(order.id)).toMatchObject({ status: 'paid', paymentId: result.razorpay_payment_id, signature: result.razorpay_signature });
  });

  it('changes nothing on a replay', async () => {
    const order = await orderFor(free);
    const result = await pay(free, order.id);
    await call(verify, '/api/payments/verify', result, { session: await sessionOf(free) });
    const before = await store.findUserBy('uid', free);
    clock = new Date(clock.getTime() + 3 * DAY);
    const replay = await call(verify, '/api/payments/verify', result, { session: await sessionOf(free) });
    expect(replay.status).toBe(200);
    expect(replay.json.status).toBe('already_paid');
    expect(await store.findUserBy('uid', free)).toEqual(before);
    // A second signed payment on the paid order (a replayed dialog) changes nothing either.
    const second = await pay(free, order.id);
    expect((await call(verify, '/api/payments/verify', second, { session: await sessionOf(free) })).json.status).toBe('already_paid');
    expect(await store.findUserBy('uid', free)).toEqual(before);
  });

  it('grants once when verify and the webhook race for the same order', async () => {
    const order = await orderFor(free);
    const result = await pay(free, order.id);
    const session = await sessionOf(free);
    const outcomes = await Promise.all([
      call(verify, '/api/payments/verify', result, { session }),
      call(verify, '/api/payments/verify', result, { session }),
      sendWebhook(paymentEvent('payment.captured', order.id, result.razorpay_payment_id, order.amount), { eventId: `evt_${n}_race` }),
    ]);
    const statuses = outcomes.map((o) => o.json.status).sort();
    expect(statuses.filter((s) => s === 'granted')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'already_paid')).toHaveLength(2);
    expect(await store.findUserBy('uid', free)).toMatchObject({ expiresAt: '2027-11-22T04:30:00.000Z' });
  });

  it('refuses a bad signature and saves nothing', async () => {
    const order = await orderFor(free);
    const result = await pay(free, order.id);
    const forged = createHmac('sha256', 'not-the-secret').update(`${order.id}|${result.razorpay_payment_id}`).digest('hex');
    for (const signature of [forged, 'deadbeef', `${result.razorpay_signature.slice(0, -2)}00`]) {
      if (signature === result.razorpay_signature) continue;
      const res = await call(verify, '/api/payments/verify', { ...result, razorpay_signature: signature }, { session: await sessionOf(free) });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'bad_signature', field: 'razorpay_signature' });
    }
    // A good signature for another payment id does not carry over.
    const res = await call(verify, '/api/payments/verify', { ...result, razorpay_payment_id: 'pay_other' }, { session: await sessionOf(free) });
    expect(res.status).toBe(400);
    expect(await store.findUserBy('uid', free)).toMatchObject({ subscribed: false, plan: null });
    expect((await store.findOrder(order.id))!.status).toBe('created');
  });

  it("refuses another user's order with 403, and an unknown order with 404", async () => {
    const order = await orderFor(free);
    const result = await pay(free, order.id);
    const stolen = await call(verify, '/api/payments/verify', result, { session: await sessionOf(other) });
    expect(stolen.status).toBe(403);
    expect(await store.findUserBy('uid', other)).toMatchObject({ subscribed: false });
    expect(await store.findUserBy('uid', free)).toMatchObject({ subscribed: false });
    // The sandbox dialog refuses to sign another user's order, too.
    const dialog = await call(sandboxComplete, '/api/payments/sandbox/complete', { order_id: order.id, outcome: 'pay' }, { session: await sessionOf(other) });
    expect(dialog.status).toBe(403);

    const madeUp = 'order_sbx_doesnotexist00';
    const signature = createHmac('sha256', SECRET).update(`${madeUp}|pay_1`).digest('hex');
    const missing = await call(verify, '/api/payments/verify', { razorpay_order_id: madeUp, razorpay_payment_id: 'pay_1', razorpay_signature: signature }, { session: await sessionOf(free) });
    expect(missing.status).toBe(404);
  });

  it('renews the same plan from the old expiry when it has not lapsed', async () => {
    const oldExpiry = new Date(clock.getTime() + 10 * DAY).toISOString();
    await store.updateUsersBy('uid', free, { subscribed: true, plan: 'Standard', expiresAt: oldExpiry });
    const order = await orderFor(free, 'Standard');
    const res = await call(verify, '/api/payments/verify', await pay(free, order.id), { session: await sessionOf(free) });
    expect(res.json.user).toMatchObject({ plan: 'Standard', subscriptionAmount: 10_000, expiresAt: new Date(Date.parse(oldExpiry) + 365 * DAY).toISOString() });
  });

  it('converts the days left on another plan at the two prices when changing plan', async () => {
    await store.updateUsersBy('uid', free, { subscribed: true, plan: 'Basic', expiresAt: new Date(clock.getTime() + 30 * DAY).toISOString() });
    const order = await orderFor(free, 'Premium');
    const res = await call(verify, '/api/payments/verify', await pay(free, order.id), { session: await sessionOf(free) });
    // 30 days of Basic (₹5,500/year) are worth 11 days of Premium (₹15,000/year).
    const expected = clock.getTime() + 365 * DAY + Math.floor((30 * DAY * 5_500) / 15_000);
    expect(res.json.user).toMatchObject({ plan: 'Premium', expiresAt: new Date(expected).toISOString() });
  });

  it('answers 400 for bad input, 401 anonymous, 403 cross-origin', async () => {
    const session = await sessionOf(free);
    for (const body of ['{', '{}', '{"razorpay_order_id":"o","razorpay_payment_id":"p"}', '{"razorpay_order_id":1,"razorpay_payment_id":"p","razorpay_signature":"s"}']) {
      const res = await call(verify, '/api/payments/verify', body, { session });
      expect(res.status, body).toBe(400);
    }
    const missingSignature = await call(verify, '/api/payments/verify', { razorpay_order_id: 'o', razorpay_payment_id: 'p' }, { session });
    expect(missingSignature.json.error.field).toBe('razorpay_signature');
    expect((await call(verify, '/api/payments/verify', { razorpay_order_id: 'o', razorpay_payment_id: 'p', razorpay_signature: 's' })).status).toBe(401);
    expect((await call(verify, '/api/payments/verify', {}, { session, origin: 'http://127.0.0.1:9999' })).status).toBe(403);
  });
});

describe('POST /api/payments/sandbox/complete', () => {
  it('Fail marks the order failed and saves nothing on the user', async () => {
    const order = await orderFor(free);
    const res = await call(sandboxComplete, '/api/payments/sandbox/complete', { order_id: order.id, outcome: 'fail' }, { session: await sessionOf(free) });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('failed');
    expect(res.json.error.metadata.order_id).toBe(order.id);
    expect((await store.findOrder(order.id))!.status).toBe('failed');
    expect(await store.findUserBy('uid', free)).toMatchObject({ subscribed: false, plan: null });
  });

  it('validates its input', async () => {
    const session = await sessionOf(free);
    expect((await call(sandboxComplete, '/api/payments/sandbox/complete', { order_id: 'x', outcome: 'steal' }, { session })).status).toBe(400);
    expect((await call(sandboxComplete, '/api/payments/sandbox/complete', { order_id: 'order_sbx_none', outcome: 'pay' }, { session })).status).toBe(404);
    expect((await call(sandboxComplete, '/api/payments/sandbox/complete', { order_id: 'x', outcome: 'pay' })).status).toBe(401);
  });
});

describe('POST /api/payments/webhook', () => {
  it('payment.captured grants the plan when verify never arrived (a closed tab)', async () => {
    const order = await orderFor(free, 'Platinum');
    const res = await sendWebhook(paymentEvent('payment.captured', order.id, 'pay_closedtab1', order.amount), { eventId: `evt_${n}_a` });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('granted');
    expect(await store.findUserBy('uid', free)).toMatchObject({ subscribed: true, plan: 'Platinum', paymentId: 'pay_closedtab1', orderId: order.id, subscriptionAmount: 25_000 });
    expect((await store.findOrder(order.id))!.status).toBe('paid');
    // The browser's verify arriving afterwards changes nothing.
    const before = await store.findUserBy('uid', free);
    const late = await call(verify, '/api/payments/verify', await pay(free, order.id), { session: await sessionOf(free) });
    expect(late.json.status).toBe('already_paid');
    expect(await store.findUserBy('uid', free)).toEqual(before);
  });

  it('order.paid grants too', async () => {
    const order = await orderFor(free, 'Basic');
    const body = {
      event: 'order.paid',
      payload: {
        payment: { entity: { id: 'pay_orderpaid1', amount: order.amount, currency: 'INR', order_id: order.id } },
        order: { entity: { id: order.id, amount: order.amount, status: 'paid' } },
      },
    };
    const res = await sendWebhook(body, { eventId: `evt_${n}_op` });
    expect(res.json.status).toBe('granted');
    expect(await store.findUserBy('uid', free)).toMatchObject({ subscribed: true, plan: 'Basic' });
  });

  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const order = await orderFor(free);
    const bad = await sendWebhook(paymentEvent('payment.captured', order.id, 'pay_x', order.amount), { secret: 'wrong', eventId: `evt_${n}_bad` });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('bad_signature');
    const missing = await call(webhook, '/api/payments/webhook', JSON.stringify(paymentEvent('payment.captured', order.id, 'pay_x', order.amount)), { origin: null });
    expect(missing.status).toBe(400);
    expect((await store.findOrder(order.id))!.status).toBe('created');
    expect(await store.findUserBy('uid', free)).toMatchObject({ subscribed: false });
    // A body signed properly but not JSON is a 400, not a 500.
    const notJson = 'not json';
    const res = await call(webhook, '/api/payments/webhook', notJson, { origin: null, headers: { 'x-razorpay-signature': signWebhook(notJson) } });
    expect(res.status).toBe(400);
  });

  it('applies each event once: a duplicate changes nothing', async () => {
    const order = await orderFor(free);
    const event = paymentEvent('payment.captured', order.id, 'pay_dup1', order.amount);
    expect((await sendWebhook(event, { eventId: `evt_${n}_dup` })).json.status).toBe('granted');
    const after = await store.findUserBy('uid', free);
    clock = new Date(clock.getTime() + DAY);
    expect((await sendWebhook(event, { eventId: `evt_${n}_dup` })).json.status).toBe('duplicate');
    // Without the header, the payment id makes it idempotent.
    expect((await sendWebhook(event)).json.status).toBe('already_paid');
    expect((await sendWebhook(event)).json.status).toBe('duplicate');
    expect(await store.findUserBy('uid', free)).toEqual(after);
  });

  it('out of order: a failure after the payment leaves it paid; a payment after a failure makes it paid', async () => {
    const first = await orderFor(free);
    await sendWebhook(paymentEvent('payment.captured', first.id, 'pay_ok1', first.amount), { eventId: `evt_${n}_1` });
    const late = await sendWebhook(paymentEvent('payment.failed', first.id, 'pay_declined1', first.amount, { error_description: 'Card declined' }), { eventId: `evt_${n}_2` });
    expect(late.json.status).toBe('already_paid');
    expect(await store.findOrder(first.id)).toMatchObject({ status: 'paid', paymentId: 'pay_ok1' });
    expect(await store.findUserBy('uid', free)).toMatchObject({ subscribed: true, paymentId: 'pay_ok1' });

    const second = await orderFor(other);
    const failed = await sendWebhook(paymentEvent('payment.failed', second.id, 'pay_declined2', second.amount, { error_description: 'Card declined' }), { eventId: `evt_${n}_3` });
    expect(failed.json.status).toBe('failed');
    expect(await store.findOrder(second.id)).toMatchObject({ status: 'failed', failureReason: 'Card declined' });
    expect(await store.findUserBy('uid', other)).toMatchObject({ subscribed: false });
    const paid = await sendWebhook(paymentEvent('payment.captured', second.id, 'pay_ok2', second.amount), { eventId: `evt_${n}_4` });
    expect(paid.json.status).toBe('granted');
    expect(await store.findOrder(second.id)).toMatchObject({ status: 'paid', paymentId: 'pay_ok2', failureReason: null });
    expect(await store.findUserBy('uid', other)).toMatchObject({ subscribed: true, plan: 'Premium' });
  });

  it('answers 200 and ignores unknown events, unknown orders and a wrong amount', async () => {
    const unknown = await sendWebhook({ event: 'refund.created', payload: { refund: { entity: { id: 'rfnd_1' } } } }, { eventId: `evt_${n}_u` });
    expect(unknown.status).toBe(200);
    expect(unknown.json.status).toBe('ignored');
    expect((await sendWebhook({ event: 'refund.created' }, { eventId: `evt_${n}_u` })).json.status).toBe('duplicate');
    const odd = await sendWebhook({ event: 'payment.dispute.created', payload: { payment: { entity: { amount: 'lots' } }, dispute: 7 } }, { eventId: `evt_${n}_odd` });
    expect(odd.status).toBe(200);
    expect(odd.json.status).toBe('ignored');
    const malformed = await sendWebhook({ event: 'payment.captured', payload: { payment: { entity: { id: 42 } } } }, { eventId: `evt_${n}_mal` });
    expect(malformed.status).toBe(200);
    expect(malformed.json.status).toBe('ignored');
    const noEvent = await sendWebhook({ payload: {} });
    expect(noEvent.status).toBe(400);
    const stranger = await sendWebhook(paymentEvent('payment.captured', 'order_notours', 'pay_s', 100), { eventId: `evt_${n}_s` });
    expect(stranger.status).toBe(200);
    expect(stranger.json.status).toBe('unknown_order');
    const order = await orderFor(free);
    const short = await sendWebhook(paymentEvent('payment.captured', order.id, 'pay_short', 100), { eventId: `evt_${n}_m` });
    expect(short.json.status).toBe('amount_mismatch');
    expect(await store.findUserBy('uid', free)).toMatchObject({ subscribed: false });
  });
});
