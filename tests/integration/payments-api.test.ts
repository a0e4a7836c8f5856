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
import { extractText } from 'unpdf';
import { GET as documentPdf } from '../../src/pages/api/account/documents/[id].ts';
import { POST as makePayment } from '../../src/pages/api/makePayment.ts';
import { outboxMessage, outboxMessages } from '../../src/server/mail/index.ts';
import { readMail } from '../../src/server/mail/outbox.ts';
import type { BillingDetails } from '../../src/server/store/invoices.ts';
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
  // Every payment gets a GST invoice: the buyers gave their billing details at checkout before.
  await store.saveBillingDetails(billingOf(free));
  await store.saveBillingDetails(billingOf(other));
});

/** A buyer in Gujarat without GST registration (the supplier, by default, is in Maharashtra). */
const billingOf = (uid: string, extra: Partial<BillingDetails> = {}): BillingDetails => ({
  uid, legalName: `${uid} Traders`, address: ['12 Ring Road', 'Surat'], pin: '395002', stateCode: '24', gstin: null, updatedAt: '2026-11-01T00:00:00.000Z', ...extra,
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

  it('upgrades mid-term at the price less the unused days of the current plan, starting now', async () => {
    await store.updateUsersBy('uid', free, { subscribed: true, plan: 'Basic', expiresAt: new Date(clock.getTime() + 200 * DAY).toISOString() });
    const order = await orderFor(free, 'Premium');
    // 200 unused days of Basic (₹5,500 a year) are worth ₹3,013.69: Premium costs ₹11,986.31.
    expect(order.amount).toBe(1_198_631);
    expect((await store.findOrder(order.id))!.amount).toBe(1_198_631);
    const res = await call(verify, '/api/payments/verify', await pay(free, order.id), { session: await sessionOf(free) });
    expect(res.json.user).toMatchObject({ plan: 'Premium', subscriptionAmount: 11_986.31, expiresAt: new Date(clock.getTime() + 365 * DAY).toISOString() });
    const invoice = (await store.findInvoiceByOrder(order.id))!;
    expect(invoice.purchase).toMatchObject({ kind: 'upgrade', fromPlan: 'Basic', creditPaise: 301_369 });
    expect(invoice.document.tax.totalPaise).toBe(1_198_631);
    expect(invoice.document.line.description).toContain('upgrade from Basic; ₹3,013.69 credited for its unused days');
  });

  it('refuses a cheaper plan while a dearer one runs (it would cut the term short)', async () => {
    await store.updateUsersBy('uid', free, { subscribed: true, plan: 'Premium', expiresAt: new Date(clock.getTime() + 40 * DAY).toISOString() });
    const res = await call(makePayment, '/api/makePayment', { plan: 'Basic' }, { session: await sessionOf(free) });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: 'cheaper_than_current', field: 'plan' });
    expect(res.json.error.message).toMatch(/^Your Premium plan runs until 1st Jan 2027/);
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

describe('GST invoices', () => {
  const billingBody = { legalName: 'Karnavati Polymers Private Limited', address: '4th Floor, Shivalik Plaza\nAhmedabad', pin: '380015', stateCode: '24', gstin: '24AAACR5055K1ZD' };

  async function buyWith(uid: string, billing: unknown, plan = 'Premium') {
    const res = await call(makePayment, '/api/makePayment', { plan, billing }, { session: await sessionOf(uid) });
    return res;
  }

  async function getPdf(id: string, session: Session | null) {
    const url = new URL(`/api/account/documents/${id}`, ORIGIN);
    const context = { request: new Request(url), url, params: { id }, locals: { session }, site: new URL(ORIGIN) } as unknown as APIContext;
    return documentPdf(context);
  }

  it('checks and saves the billing details given at checkout; without any, there is no order', async () => {
    const uid = `gst${n}`;
    await store.createUser(record(uid));
    const none = await call(makePayment, '/api/makePayment', { plan: 'Premium' }, { session: await sessionOf(uid) });
    expect(none.status).toBe(400);
    expect(none.json.error).toMatchObject({ code: 'billing_required', field: 'billing.legalName' });
    const refused: [unknown, string][] = [
      [{ ...billingBody, gstin: '24AAACR5055K1ZE' }, 'billing.gstin'], // the check character is wrong
      [{ ...billingBody, stateCode: '27' }, 'billing.stateCode'], // a Gujarat GSTIN with Maharashtra chosen
      [{ ...billingBody, pin: '38001' }, 'billing.pin'],
      [{ ...billingBody, legalName: 'कर्णावती पॉलिमर्स' }, 'billing.legalName'],
      [{ ...billingBody, legalName: '  ' }, 'billing.legalName'],
      [{ ...billingBody, address: '' }, 'billing.address'],
      [{ ...billingBody, stateCode: '99' }, 'billing.stateCode'],
    ];
    for (const [billing, field] of refused) {
      const res = await buyWith(uid, billing);
      expect(res.status, JSON.stringify(billing)).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'invalid_billing', field });
    }
    expect((await buyWith(uid, { ...billingBody, pin: 380015 })).status).toBe(400);
    expect(await store.findBillingDetails(uid)).toBeNull();
    expect(await store.listOrdersByUid(uid)).toEqual([]);

    const ok = await buyWith(uid, { ...billingBody, gstin: ' 24aaacr5055k1zd ' });
    expect(ok.status).toBe(200);
    expect(await store.findBillingDetails(uid)).toMatchObject({ legalName: billingBody.legalName, address: ['4th Floor, Shivalik Plaza', 'Ahmedabad'], pin: '380015', stateCode: '24', gstin: '24AAACR5055K1ZD' });
    // Once saved, the next checkout may send none.
    expect((await call(makePayment, '/api/makePayment', { plan: 'Basic' }, { session: await sessionOf(uid) })).status).toBe(200);
  });

  it('issues an IGST invoice to a buyer in another state, a CGST+SGST one within the supplier state, and mails it as PDF', async () => {
    const inter = `inter${n}`;
    const intra = `intra${n}`;
    for (const uid of [inter, intra]) await store.createUser(record(uid));
    const interOrder = (await buyWith(inter, billingBody)).json as { id: string };
    const intraOrder = (await buyWith(intra, { legalName: 'Thane Plastics', address: 'Plot 7, Wagle Estate | Thane', pin: '400604', stateCode: '27', gstin: '27AAACR5055K1Z7' })).json as { id: string };
    for (const [uid, order] of [[inter, interOrder], [intra, intraOrder]] as const) {
      expect((await call(verify, '/api/payments/verify', await pay(uid, order.id), { session: await sessionOf(uid) })).status).toBe(200);
    }
    const interInvoice = (await store.findInvoiceByOrder(interOrder.id))!;
    const intraInvoice = (await store.findInvoiceByOrder(intraOrder.id))!;
    expect(interInvoice.document.tax.lines.map((l) => `${l.tax} ${l.ratePercent}% ${l.amountPaise}`)).toEqual(['IGST 18% 228814']);
    expect(intraInvoice.document.tax.lines.map((l) => `${l.tax} ${l.ratePercent}% ${l.amountPaise}`)).toEqual(['CGST 9% 114407', 'SGST 9% 114407']);
    expect(intraInvoice.sequence).toBe(interInvoice.sequence + 1);
    expect(interInvoice.document.recipient).toMatchObject({ legalName: billingBody.legalName, gstin: '24AAACR5055K1ZD' });

    // The owner downloads the PDF; its text carries the number, the buyer's GSTIN and IGST.
    const response = await getPdf(interInvoice.id, await sessionOf(inter));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${interInvoice.id}.pdf"`);
    const { text } = await extractText(new Uint8Array(await response.arrayBuffer()), { mergePages: true });
    expect(text).toContain(interInvoice.number);
    expect(text).toContain('24AAACR5055K1ZD');
    expect(text).toMatch(/IGST/);
    expect(text).not.toMatch(/CGST/);

    // The receipt mail carries the same PDF.
    const mails = await outboxMessages(200);
    const receipt = mails.find((m) => m.to === `${inter}@example.test` && m.subject?.includes('receipt'));
    expect(receipt).toBeDefined();
    const raw = (await outboxMessage(receipt!.file))!;
    expect(raw).toMatch(new RegExp(`Content-Type: application/pdf; name=${interInvoice.id}\\.pdf`));
    expect(raw).toContain(`${interInvoice.number} of`);
  });

  it('serves a document to its owner and an administrator only', async () => {
    const uid = `owner${n}`;
    await store.createUser(record(uid));
    const order = (await buyWith(uid, billingBody)).json as { id: string };
    await call(verify, '/api/payments/verify', await pay(uid, order.id), { session: await sessionOf(uid) });
    const invoice = (await store.findInvoiceByOrder(order.id))!;
    expect((await getPdf(invoice.id, await sessionOf(uid))).status).toBe(200);
    expect((await getPdf(`${invoice.id}.pdf`, await sessionOf(uid))).status).toBe(200);
    const stranger = await getPdf(invoice.id, await sessionOf(other));
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await getPdf(invoice.id, null)).status).toBe(401);
    await store.createUser(record(`admin${n}`, { role: 'admin' }));
    expect((await getPdf(invoice.id, await sessionOf(`admin${n}`))).status).toBe(200);
    for (const id of ['PI-26-27-99999', '../etc', 'PI/26-27/00001', '']) expect((await getPdf(id, await sessionOf(uid))).status, id).toBe(404);
  });

  it('a refund webhook issues one credit note against the invoice', async () => {
    const uid = `refund${n}`;
    await store.createUser(record(uid));
    const order = (await buyWith(uid, billingBody)).json as { id: string };
    const result = await pay(uid, order.id);
    await call(verify, '/api/payments/verify', result, { session: await sessionOf(uid) });
    const invoice = (await store.findInvoiceByOrder(order.id))!;
    const refund = { event: 'refund.processed', payload: { refund: { entity: { id: `rfnd_${n}`, payment_id: result.razorpay_payment_id, amount: 1_500_000, entity: 'refund' } } } };
    const first = await sendWebhook(refund, { eventId: `evt_${n}_refund` });
    expect(first.json.status).toBe('credit_note_issued');
    // A retry under another event id (refund.processed sent twice) issues nothing new.
    expect((await sendWebhook(refund, { eventId: `evt_${n}_refund_again` })).json.status).toBe('duplicate');
    const notes = await store.listCreditNotes(uid);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ invoiceNumber: invoice.number, refundId: `rfnd_${n}` });
    expect(notes[0]!.document.tax).toEqual(invoice.document.tax);
    const pdf = await getPdf(notes[0]!.id, await sessionOf(uid));
    expect(pdf.status).toBe(200);
    const { text: pdfText } = await extractText(new Uint8Array(await pdf.arrayBuffer()), { mergePages: true });
    expect(pdfText).toContain(invoice.number);
    // The buyer is mailed the note, once, with its PDF.
    const mails = (await outboxMessages(200)).filter((m) => m.to === `${uid}@example.test` && m.subject?.includes('credit note'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your PolyIndex credit note ${notes[0]!.document.number}`);
    const raw = (await outboxMessage(mails[0]!.file))!;
    expect(raw).toMatch(new RegExp(`Content-Type: application/pdf; name=${notes[0]!.id}\\.pdf`));
    const { text } = await readMail(raw);
    expect(text).toMatch(new RegExp(`Against invoice:\\s+${invoice.number.replaceAll('/', '\\/')} of`));
    expect(text).toContain('A refund of ₹15,000 was made to you.');
  });
});
