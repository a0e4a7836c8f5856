/** The PaymentStore contract: orders idempotent by id, the grant, failures, events, listings. */
import { describe, expect, it } from 'vitest';
import { findPlan } from '../../src/lib/plans.ts';
import type { GrantInput, NewOrder } from '../../src/server/store/payments.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { backends, storePerTest, withTwins, twinTest } from './backends.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
const DAY_MS = 86_400_000;
/** A plan missing from the plan table: the grant uses `durationDays` as given. */
const PLAN = 'Contract-30';

const order = (id: string, uid: string, extra: Partial<NewOrder> = {}): NewOrder => ({ id, uid, plan: PLAN, amount: 1_500_000, currency: 'INR', receipt: `r_${id}`, ...extra });
const user = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});
const grant = (orderId: string, extra: Partial<GrantInput> = {}): GrantInput => ({ orderId, paymentId: `pay_${orderId}`, signature: `sig_${orderId}`, now: NOW, durationDays: 30, ...extra });

describe.each(backends)('payment store on $name', (backend) => {
  const store = storePerTest(backend);

  describe('createOrder and findOrder', () => {
    it('are idempotent by order id: a second create changes nothing', async () => {
      expect(await store().createOrder(order('order_A', 'u1'), NOW)).toBe(true);
      expect(await store().createOrder({ ...order('order_A', 'intruder'), amount: 1 }, new Date(NOW.getTime() + 1000))).toBe(false);
      expect(await store().findOrder('order_A')).toEqual({
        id: 'order_A', uid: 'u1', plan: PLAN, amount: 1_500_000, currency: 'INR', receipt: 'r_order_A',
        status: 'created', paymentId: null, signature: null, failureReason: null, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
      });
      expect(await store().findOrder('order_none')).toBeNull();
      expect(await store().findOrder('')).toBeNull();
    });

    it('finds nothing (and does not throw) for an id no order can have', async () => {
      for (const id of ['..', '.', '__x__', 'a/b']) expect(await store().findOrder(id), id).toBeNull();
      expect(await store().grantOrder(grant('__x__'))).toEqual({ kind: 'no_order' });
    });

    it('an order copied in again as unpaid (store:copy --merge of an older copy) can be paid again', async () => {
      await store().createUser(user('u-copy'));
      await store().createOrder(order('order_R', 'u-copy'), NOW);
      expect((await store().grantOrder(grant('order_R'))).kind).toBe('granted');
      const paid = (await store().findOrder('order_R'))!;
      await store().importRecords('orders', [{ ...paid, status: 'created', paymentId: null, signature: null }]);
      expect((await store().findOrder('order_R'))?.status).toBe('created');
      expect((await store().grantOrder(grant('order_R', { paymentId: 'pay_again' }))).kind).toBe('granted');
      // …and one copied in as paid is never paid twice.
      await store().importRecords('orders', [paid]);
      expect((await store().grantOrder(grant('order_R', { paymentId: 'pay_third' }))).kind).toBe('already_paid');
    });

    it('two concurrent creates of one order id make one order', async () => {
      const results = await Promise.all([store().createOrder(order('order_C', 'u1'), NOW), store().createOrder(order('order_C', 'u2'), NOW)]);
      expect(results.toSorted()).toEqual([false, true]);
      expect((await store().findOrder('order_C'))?.uid).toBe(results[0] ? 'u1' : 'u2');
      expect(await store().countOrdersByStatus()).toEqual({ created: 1, paid: 0, failed: 0 });
    });
  });

  describe('grantOrder', () => {
    it('subscribes the user and pays the order, keeping the record’s other fields', async () => {
      await store().createUser(user('buyer', { favouriteGrade: 'ppRaffia', phone: '+919000000000' }));
      await store().createOrder(order('order_G', 'buyer'), NOW);
      const result = await store().grantOrder(grant('order_G'));
      const expected = user('buyer', {
        favouriteGrade: 'ppRaffia', phone: '+919000000000',
        subscribed: true, plan: PLAN, subscriptionAmount: 15_000, paymentId: 'pay_order_G', orderId: 'order_G', signature: 'sig_order_G',
        subscribedAt: NOW.toISOString(), expiresAt: new Date(NOW.getTime() + 30 * DAY_MS).toISOString(),
      });
      const paid = {
        id: 'order_G', uid: 'buyer', plan: PLAN, amount: 1_500_000, currency: 'INR', receipt: 'r_order_G',
        status: 'paid', paymentId: 'pay_order_G', signature: 'sig_order_G', failureReason: null, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
      };
      // No invoice without an invoice issue and billing details (tests/contract/invoices.contract.test.ts).
      expect(result).toEqual({ kind: 'granted', user: expected, order: paid, invoice: null });
      expect(await store().findUserBy('uid', 'buyer')).toEqual(expected);
      expect(await store().findUserBy('phone', '+919000000000')).toEqual(expected);
      expect(await store().findOrder('order_G')).toEqual(paid);
      expect(await store().countOrdersByStatus()).toEqual({ created: 0, paid: 1, failed: 0 });
    });

    it('a paid order is already_paid and changes nothing on a replay', async () => {
      await store().createUser(user('buyer'));
      await store().createOrder(order('order_R', 'buyer'), NOW);
      const first = await store().grantOrder(grant('order_R'));
      expect(first.kind).toBe('granted');
      const later = new Date(NOW.getTime() + 3600_000);
      const replay = await store().grantOrder(grant('order_R', { paymentId: 'pay_other', signature: 'sig_other', now: later }));
      expect(replay.kind).toBe('already_paid');
      if (first.kind !== 'granted' || replay.kind !== 'already_paid') return;
      expect(replay.order).toEqual(first.order);
      expect(replay.user).toEqual(first.user);
      expect(await store().findUserBy('uid', 'buyer')).toEqual(first.user);
      expect(await store().findOrder('order_R')).toEqual(first.order);
    });

    it('a webhook event is applied once: its repeat is duplicate_event, and an event on a paid order is remembered', async () => {
      await store().createUser(user('buyer'));
      await store().createOrder(order('order_E', 'buyer'), NOW);
      const event = { id: 'evt_E1', type: 'payment.captured' };
      expect((await store().grantOrder(grant('order_E', { event, signature: null }))).kind).toBe('granted');
      expect(await store().grantOrder(grant('order_E', { event, signature: null }))).toEqual({ kind: 'duplicate_event' });
      // The verify path granted first; the webhook's event arrives after: already_paid, then remembered.
      const late = { id: 'evt_E2', type: 'order.paid' };
      expect((await store().grantOrder(grant('order_E', { event: late, signature: null }))).kind).toBe('already_paid');
      expect(await store().grantOrder(grant('order_E', { event: late, signature: null }))).toEqual({ kind: 'duplicate_event' });
      expect(await store().recordEvent(late, NOW)).toBe(false);
      expect((await store().findUserBy('uid', 'buyer'))?.signature).toBeNull();
    });

    it('an event recorded on its own counts as processed for the grant', async () => {
      await store().createUser(user('buyer'));
      await store().createOrder(order('order_P', 'buyer'), NOW);
      const event = { id: 'evt_P', type: 'payment.captured' };
      expect(await store().recordEvent(event, NOW)).toBe(true);
      expect(await store().grantOrder(grant('order_P', { event }))).toEqual({ kind: 'duplicate_event' });
      expect((await store().findOrder('order_P'))?.status).toBe('created');
      expect((await store().findUserBy('uid', 'buyer'))?.subscribed).toBe(false);
    });

    it('without a user record grants nothing, and its webhook event stays retryable', async () => {
      await store().createOrder(order('order_B', 'ghost'), NOW);
      const event = { id: 'evt_B', type: 'payment.captured' };
      const missing = await store().grantOrder(grant('order_B', { signature: null, event }));
      expect(missing.kind).toBe('no_user');
      if (missing.kind === 'no_user') expect(missing.order).toMatchObject({ id: 'order_B', status: 'created' });
      expect((await store().findOrder('order_B'))!.status).toBe('created');
      expect(await store().findUserBy('uid', 'ghost')).toBeNull();
      await store().createUser(user('ghost'));
      expect((await store().grantOrder(grant('order_B', { signature: null, event }))).kind).toBe('granted');
      expect((await store().grantOrder(grant('order_B', { signature: null, event }))).kind).toBe('duplicate_event');
      expect(await store().findUserBy('email', 'ghost@example.test')).toMatchObject({ subscribed: true, plan: PLAN, signature: null, orderId: 'order_B' });
    });

    it('an unknown order is reported, not invented, and its event stays retryable', async () => {
      const event = { id: 'evt_zz', type: 'payment.captured' };
      expect(await store().grantOrder(grant('order_zz', { event }))).toEqual({ kind: 'no_order' });
      expect(await store().failOrder({ orderId: 'order_zz', paymentId: null, reason: null, now: NOW, event })).toEqual({ kind: 'no_order' });
      expect(await store().findOrder('order_zz')).toBeNull();
      expect(await store().countOrdersByStatus()).toEqual({ created: 0, paid: 0, failed: 0 });
      expect(await store().recordEvent(event, NOW)).toBe(true);
    });

    it('a renewal extends from the later of now and the old expiry', async () => {
      const future = new Date(NOW.getTime() + 10 * DAY_MS).toISOString();
      await store().createUser(user('early', { subscribed: true, plan: PLAN, expiresAt: future }));
      await store().createUser(user('lapsed', { subscribed: true, plan: PLAN, expiresAt: new Date(NOW.getTime() - 5 * DAY_MS).toISOString() }));
      await store().createOrder(order('order_early', 'early'), NOW);
      await store().createOrder(order('order_lapsed', 'lapsed'), NOW);
      await store().grantOrder(grant('order_early'));
      await store().grantOrder(grant('order_lapsed'));
      expect((await store().findUserBy('uid', 'early'))?.expiresAt).toBe(new Date(NOW.getTime() + 40 * DAY_MS).toISOString());
      expect((await store().findUserBy('uid', 'lapsed'))?.expiresAt).toBe(new Date(NOW.getTime() + 30 * DAY_MS).toISOString());
      // A second order of the same user stacks on the first.
      const later = new Date(NOW.getTime() + DAY_MS);
      await store().createOrder(order('order_early2', 'early'), later);
      await store().grantOrder(grant('order_early2', { now: later }));
      expect(await store().findUserBy('uid', 'early')).toMatchObject({
        expiresAt: new Date(NOW.getTime() + 70 * DAY_MS).toISOString(), orderId: 'order_early2', subscribedAt: later.toISOString(),
      });
    });

    it('a plan of the plan table runs for that plan’s duration; an upgrade starts now, a renewal at the current end', async () => {
      const premium = findPlan('Premium')!;
      const basic = findPlan('Basic')!;
      await store().createUser(user('fresh'));
      await store().createOrder(order('order_premium', 'fresh', { plan: 'Premium', amount: premium.pricePaise }), NOW);
      const granted = await store().grantOrder(grant('order_premium', { durationDays: 1 }));
      expect(granted.kind).toBe('granted');
      expect(await store().findUserBy('uid', 'fresh')).toMatchObject({
        plan: 'Premium', subscriptionAmount: premium.pricePaise / 100, expiresAt: new Date(NOW.getTime() + premium.durationDays * DAY_MS).toISOString(),
      });
      // An upgrade from Basic with days left: the order charged the price less their credit
      // (src/lib/proration.ts); the new plan runs a full year from now.
      const basicUntil = new Date(NOW.getTime() + 100 * DAY_MS).toISOString();
      await store().createUser(user('upgrader', { subscribed: true, plan: 'Basic', expiresAt: basicUntil }));
      const charged = premium.pricePaise - Math.floor((basic.pricePaise * 100) / basic.durationDays);
      await store().createOrder(order('order_upgrade', 'upgrader', { plan: 'Premium', amount: charged }), NOW);
      await store().grantOrder(grant('order_upgrade'));
      expect(await store().findUserBy('uid', 'upgrader')).toMatchObject({ plan: 'Premium', expiresAt: new Date(NOW.getTime() + premium.durationDays * DAY_MS).toISOString() });
      // A renewal of the same plan follows the current term: no paid day is lost.
      await store().createUser(user('renewer', { subscribed: true, plan: 'Basic', expiresAt: basicUntil }));
      await store().createOrder(order('order_renewal', 'renewer', { plan: 'Basic', amount: basic.pricePaise }), NOW);
      await store().grantOrder(grant('order_renewal'));
      expect((await store().findUserBy('uid', 'renewer'))?.expiresAt).toBe(new Date(Date.parse(basicUntil) + basic.durationDays * DAY_MS).toISOString());
    });

    it('two concurrent grants of one order on one handle grant once', async () => {
      await store().createUser(user('buyer'));
      await store().createOrder(order('order_X', 'buyer'), NOW);
      const results = await Promise.all([
        store().grantOrder(grant('order_X', { paymentId: 'pay_1', event: { id: 'evt_X1', type: 'payment.captured' } })),
        store().grantOrder(grant('order_X', { paymentId: 'pay_2', event: { id: 'evt_X2', type: 'order.paid' } })),
      ]);
      expect(results.map((r) => r.kind).toSorted()).toEqual(['already_paid', 'granted']);
      const winner = results[0].kind === 'granted' ? 'pay_1' : 'pay_2';
      expect(await store().findUserBy('uid', 'buyer')).toMatchObject({ paymentId: winner, expiresAt: new Date(NOW.getTime() + 30 * DAY_MS).toISOString() });
      expect((await store().findOrder('order_X'))?.paymentId).toBe(winner);
    });

    twinTest(backend)('two concurrent grants of one order from two processes grant once', async () => {
      await withTwins(backend, async (a, b) => {
        await a.createUser(user('buyer'));
        await a.createOrder(order('order_X', 'buyer'), NOW);
        const results = await Promise.all([
          a.grantOrder(grant('order_X', { paymentId: 'pay_1' })),
          b.grantOrder(grant('order_X', { paymentId: 'pay_2' })),
        ]);
        expect(results.map((r) => r.kind).toSorted()).toEqual(['already_paid', 'granted']);
        const winner = results[0].kind === 'granted' ? 'pay_1' : 'pay_2';
        // Granted once: the expiry moved by one plan duration, not two.
        expect(await b.findUserBy('uid', 'buyer')).toMatchObject({ paymentId: winner, expiresAt: new Date(NOW.getTime() + 30 * DAY_MS).toISOString() });
        expect((await a.findOrder('order_X'))?.paymentId).toBe(winner);
      });
    });

    twinTest(backend)('one webhook event delivered to two processes at once is applied once', async () => {
      await withTwins(backend, async (a, b) => {
        await a.createUser(user('buyer'));
        await a.createOrder(order('order_W', 'buyer'), NOW);
        const event = { id: 'evt_W', type: 'payment.captured' };
        const results = await Promise.all([a.grantOrder(grant('order_W', { event })), b.grantOrder(grant('order_W', { event }))]);
        expect(results.map((r) => r.kind).toSorted()).toEqual(['duplicate_event', 'granted']);
        expect((await b.findUserBy('uid', 'buyer'))?.expiresAt).toBe(new Date(NOW.getTime() + 30 * DAY_MS).toISOString());
      });
    });
  });

  describe('failOrder', () => {
    it('marks a created order failed with the reason, keeping a payment id it had', async () => {
      await store().createOrder(order('order_F', 'u'), NOW);
      const later = new Date(NOW.getTime() + 60_000);
      const failed = await store().failOrder({ orderId: 'order_F', paymentId: 'pay_F1', reason: 'declined', now: later });
      const expected = {
        id: 'order_F', uid: 'u', plan: PLAN, amount: 1_500_000, currency: 'INR', receipt: 'r_order_F',
        status: 'failed', paymentId: 'pay_F1', signature: null, failureReason: 'declined', createdAt: NOW.toISOString(), updatedAt: later.toISOString(),
      };
      expect(failed).toEqual({ kind: 'failed', order: expected });
      expect(await store().findOrder('order_F')).toEqual(expected);
      // A second failure without a payment id keeps the one known.
      const again = await store().failOrder({ orderId: 'order_F', paymentId: null, reason: 'timeout', now: later });
      expect(again).toEqual({ kind: 'failed', order: { ...expected, failureReason: 'timeout' } });
      expect(await store().countOrdersByStatus()).toEqual({ created: 0, paid: 0, failed: 1 });
    });

    it('never downgrades a paid order; a failed order can still be paid', async () => {
      await store().createUser(user('buyer'));
      await store().createOrder(order('order_D', 'buyer'), NOW);
      await store().failOrder({ orderId: 'order_D', paymentId: 'pay_bad', reason: 'declined', now: NOW });
      const granted = await store().grantOrder(grant('order_D', { paymentId: 'pay_good' }));
      expect(granted.kind).toBe('granted');
      if (granted.kind !== 'granted') return;
      expect(granted.order).toMatchObject({ status: 'paid', paymentId: 'pay_good', failureReason: null });
      const late = await store().failOrder({ orderId: 'order_D', paymentId: 'pay_late', reason: 'declined', now: new Date(NOW.getTime() + 1000), event: { id: 'evt_D', type: 'payment.failed' } });
      expect(late).toEqual({ kind: 'already_paid', order: granted.order });
      expect(await store().findOrder('order_D')).toEqual(granted.order);
      expect((await store().findUserBy('uid', 'buyer'))?.subscribed).toBe(true);
      // The event was processed (nothing to do): its repeat is a duplicate.
      expect(await store().failOrder({ orderId: 'order_D', paymentId: 'pay_late', reason: 'declined', now: NOW, event: { id: 'evt_D', type: 'payment.failed' } })).toEqual({ kind: 'duplicate_event' });
    });

    it('applies a failure event once', async () => {
      await store().createOrder(order('order_FE', 'u'), NOW);
      const event = { id: 'evt_FE', type: 'payment.failed' };
      expect((await store().failOrder({ orderId: 'order_FE', paymentId: 'p1', reason: 'first', now: NOW, event })).kind).toBe('failed');
      expect(await store().failOrder({ orderId: 'order_FE', paymentId: 'p2', reason: 'second', now: NOW, event })).toEqual({ kind: 'duplicate_event' });
      expect(await store().findOrder('order_FE')).toMatchObject({ paymentId: 'p1', failureReason: 'first' });
    });
  });

  describe('recordEvent', () => {
    it('records an event once', async () => {
      expect(await store().recordEvent({ id: 'evt_X', type: 'refund.created' }, NOW)).toBe(true);
      expect(await store().recordEvent({ id: 'evt_X', type: 'refund.created' }, NOW)).toBe(false);
      expect(await store().recordEvent({ id: 'evt_Y', type: 'refund.created' }, NOW)).toBe(true);
    });

    it('two concurrent records of one event: one is first', async () => {
      const event = { id: 'evt_C', type: 'refund.created' };
      expect((await Promise.all([store().recordEvent(event, NOW), store().recordEvent(event, NOW)])).toSorted()).toEqual([false, true]);
    });

    twinTest(backend)('one event recorded by two processes at once: one is first', async () => {
      await withTwins(backend, async (a, b) => {
        const event = { id: 'evt_C', type: 'refund.created' };
        expect((await Promise.all([a.recordEvent(event, NOW), b.recordEvent(event, NOW)])).toSorted()).toEqual([false, true]);
      });
    });
  });

  describe('listings', () => {
    it('lists a user’s orders newest first (creation order breaks ties) and counts orders by state', async () => {
      expect(await store().countOrdersByStatus()).toEqual({ created: 0, paid: 0, failed: 0 });
      await store().createUser(user('x'));
      await store().createOrder(order('o2', 'x'), new Date('2026-11-02T00:00:00Z'));
      await store().createOrder(order('o1', 'x'), new Date('2026-11-01T00:00:00Z'));
      await store().createOrder(order('o3', 'y'), new Date('2026-11-03T00:00:00Z'));
      await store().createOrder(order('o4', 'x'), new Date('2026-11-02T00:00:00Z'));
      await store().createOrder(order('o5', 'x'), new Date('2026-11-05T00:00:00Z'));
      await store().failOrder({ orderId: 'o1', paymentId: 'p1', reason: 'declined', now: NOW });
      await store().grantOrder(grant('o5'));
      expect((await store().listOrdersByUid('x')).map((o) => [o.id, o.status])).toEqual([
        ['o5', 'paid'], ['o4', 'created'], ['o2', 'created'], ['o1', 'failed'],
      ]);
      expect(await store().listOrdersByUid('y')).toEqual([await store().findOrder('o3')]);
      expect(await store().listOrdersByUid('nobody')).toEqual([]);
      expect(await store().listOrdersByUid('')).toEqual([]);
      expect(await store().countOrdersByStatus()).toEqual({ created: 3, paid: 1, failed: 1 });
    });
  });
});
