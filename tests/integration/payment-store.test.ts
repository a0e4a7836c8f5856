/** The payment store on a real SQLite file: orders idempotent by id, the grant, events, the sandbox secret. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SECRET_FILE, sandboxSecret } from '../../src/server/payments/sandbox.ts';
import { openStore, type Store } from '../../src/server/store/index.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'polyindex-paystore-'));
  store = await openStore({ url: `file:${join(dir, 'store.db')}` });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const order = (id: string, uid: string) => ({ id, uid, plan: 'Premium', amount: 1_500_000, currency: 'INR', receipt: `r_${id}` });

describe('orders', () => {
  it('are idempotent by order id: a second create changes nothing', async () => {
    expect(await store.createOrder(order('order_A', 'u1'), NOW)).toBe(true);
    expect(await store.createOrder({ ...order('order_A', 'intruder'), amount: 1 }, NOW)).toBe(false);
    expect(await store.findOrder('order_A')).toMatchObject({ uid: 'u1', amount: 1_500_000, status: 'created', createdAt: NOW.toISOString() });
    expect(await store.findOrder('order_none')).toBeNull();
    expect(await store.findOrder('')).toBeNull();
  });

  it('grant without a user record grants nothing, and its webhook event stays retryable', async () => {
    await store.createOrder(order('order_B', 'ghost'), NOW);
    const event = { id: 'evt_B', type: 'payment.captured' };
    expect((await store.grantOrder({ orderId: 'order_B', paymentId: 'pay_B', signature: null, now: NOW, durationDays: 365, event })).kind).toBe('no_user');
    expect((await store.findOrder('order_B'))!.status).toBe('created');
    await store.createUser({ uid: 'ghost', displayName: null, email: 'ghost@example.test', phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026' });
    expect((await store.grantOrder({ orderId: 'order_B', paymentId: 'pay_B', signature: null, now: NOW, durationDays: 365, event })).kind).toBe('granted');
    expect((await store.grantOrder({ orderId: 'order_B', paymentId: 'pay_B', signature: null, now: NOW, durationDays: 365, event })).kind).toBe('duplicate_event');
    expect(await store.findUserBy('email', 'ghost@example.test')).toMatchObject({ subscribed: true, plan: 'Premium', signature: null, orderId: 'order_B' });
  });

  it('an unknown order is reported, not invented', async () => {
    expect((await store.grantOrder({ orderId: 'order_zz', paymentId: 'p', signature: 's', now: NOW, durationDays: 365 })).kind).toBe('no_order');
    expect((await store.failOrder({ orderId: 'order_zz', paymentId: null, reason: null, now: NOW })).kind).toBe('no_order');
  });

  it('records events once', async () => {
    expect(await store.recordEvent({ id: 'evt_X', type: 'refund.created' }, NOW)).toBe(true);
    expect(await store.recordEvent({ id: 'evt_X', type: 'refund.created' }, NOW)).toBe(false);
  });

  it('survives a reopen: migrations run once', async () => {
    const again = await openStore({ url: `file:${join(dir, 'store.db')}` });
    try {
      expect((await again.findOrder('order_A'))!.uid).toBe('u1');
    } finally {
      await again.close();
    }
  });
});

describe('the sandbox secret', () => {
  it('is the configured one when given, else random, kept in DATA_DIR with mode 0600', () => {
    const data = join(dir, 'data');
    expect(sandboxSecret('configured', data)).toBe('configured');
    const first = sandboxSecret(undefined, data);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(sandboxSecret(undefined, data)).toBe(first);
    expect(statSync(join(data, SANDBOX_SECRET_FILE)).mode & 0o777).toBe(0o600);
    expect(sandboxSecret(undefined, join(dir, 'other'))).not.toBe(first);
  });
});
