/**
 * Every JSON endpoint reads only bodies declared as JSON (issue 15, finding 5): the same valid
 * JSON sent as a form post, as text, as multipart or with no Content-Type is a 415
 * `unsupported_media_type`, read by no handler. The caller is otherwise entitled (session,
 * Origin), so the media type is the only thing wrong. Table-driven: a new JSON endpoint family
 * adds its row. A form-encoded order request must not create an order.
 */
import type { APIContext, APIRoute } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as grant } from '../../src/pages/api/admin/users/[uid]/grant.ts';
import { POST as role } from '../../src/pages/api/admin/users/[uid]/role.ts';
import { POST as extend } from '../../src/pages/api/admin/users/[uid]/extend.ts';
import { POST as revoke } from '../../src/pages/api/admin/users/[uid]/revoke.ts';
import { POST as setCityPrice } from '../../src/pages/api/admin/citywise/[city]/set.ts';
import { POST as setOffers } from '../../src/pages/api/admin/offers/[country]/set.ts';
import { POST as setPoint } from '../../src/pages/api/admin/prices/[series]/set.ts';
import { POST as deletePoint } from '../../src/pages/api/admin/prices/[series]/delete.ts';
import { POST as moveBanner } from '../../src/pages/api/admin/banners/[id]/move.ts';
import { POST as removeBanner } from '../../src/pages/api/admin/banners/[id]/remove.ts';
import { POST as signIn } from '../../src/pages/api/auth/session.ts';
import { POST as enquiry } from '../../src/pages/api/enquiries/[kind].ts';
import { POST as makePayment } from '../../src/pages/api/makePayment.ts';
import { POST as sandboxComplete } from '../../src/pages/api/payments/sandbox/complete.ts';
import { POST as verify } from '../../src/pages/api/payments/verify.ts';
import { POST as webhook } from '../../src/pages/api/payments/webhook.ts';
import { POST as sendMail } from '../../src/pages/api/sendMail.ts';
import { POST as postAlert } from '../../src/pages/api/alerts/index.ts';
import { PUT as putAlertSettings } from '../../src/pages/api/alerts/settings.ts';
import { POST as whatsappWebhook } from '../../src/pages/api/whatsapp/webhook.ts';
import { POST as postWhatsappNumber } from '../../src/pages/api/alerts/whatsapp/index.ts';
import { POST as verifyWhatsappNumber } from '../../src/pages/api/alerts/whatsapp/verify.ts';
import { POST as saveView } from '../../src/pages/api/views/index.ts';
import { POST as adminWhatsappSend } from '../../src/pages/api/admin/whatsapp/send.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { usePaymentsRuntime } from '../../src/server/payments/index.ts';
import { createSandboxGateway } from '../../src/server/payments/sandbox.ts';
import { store } from '../../src/server/runtime.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { sessionOf, userRecordOf } from './helpers.ts';

const ORIGIN = 'http://127.0.0.1:4321';
let db: Store;
let buyer: UserRecord;
let admin: UserRecord;

const user = userRecordOf;

beforeAll(async () => {
  db = await store();
  const stamp = Date.now().toString(36);
  buyer = user(`media-buyer-${stamp}`);
  admin = user(`media-admin-${stamp}`, { role: 'admin' });
  expect(await db.createUser(buyer)).toBe(true);
  expect(await db.createUser(admin)).toBe(true);
  usePaymentsRuntime({ store: db, gateway: createSandboxGateway('sandbox-secret-for-media-type-tests'), now: () => new Date() });
});

type Caller = 'anyone' | 'buyer' | 'subscriber' | 'admin';

interface Row {
  readonly family: string;
  readonly route: APIRoute;
  /** POST unless given. */
  readonly method?: 'POST' | 'PUT';
  readonly path: string;
  readonly params?: Record<string, string>;
  readonly caller: Caller;
  /**
   * Well-formed JSON of the endpoint's shape. Writes name an impossible date or an unknown id,
   * so the JSON control below is read and refused (400/404) and changes nothing shared.
   */
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

/** One row per JSON endpoint family; every body is well-formed JSON of the endpoint's shape. */
const ROWS: readonly Row[] = [
  { family: 'sign-in', route: signIn, path: '/api/auth/session', caller: 'anyone', body: { idToken: 'x'.repeat(40) } },
  { family: 'mail', route: sendMail, path: '/api/sendMail', caller: 'anyone', body: { to: 'desk@polyindex.test', subject: 'Hello', content: 'A message to the desk.' } },
  { family: 'enquiries', route: enquiry, path: '/api/enquiries/contact', params: { kind: 'contact' }, caller: 'anyone', body: { name: 'A Buyer', email: 'buyer@example.test', message: 'Please call me.' } },
  { family: 'payments: order', route: makePayment, path: '/api/makePayment', caller: 'buyer', body: { plan: 'Premium', billing: { legalName: 'A Buyer Traders', address: '1 Market Road | Surat', pin: '395002', stateCode: '24' } } },
  { family: 'payments: verify', route: verify, path: '/api/payments/verify', caller: 'buyer', body: { razorpay_order_id: 'order_x', razorpay_payment_id: 'pay_x', razorpay_signature: 'sig' } },
  { family: 'payments: sandbox', route: sandboxComplete, path: '/api/payments/sandbox/complete', caller: 'buyer', body: { orderId: 'order_x', outcome: 'paid' } },
  { family: 'payments: webhook', route: webhook, path: '/api/payments/webhook', caller: 'anyone', body: { event: 'payment.captured' }, headers: { 'x-razorpay-signature': 'sig' } },
  { family: 'alerts: settings', route: putAlertSettings, method: 'PUT', path: '/api/alerts/settings', caller: 'subscriber', body: { series: ['no-such-series'], email: true, whatsapp: false, hour: 9 } },
  { family: 'alerts', route: postAlert, path: '/api/alerts', caller: 'subscriber', body: { series: 'no-such-series', kind: 'above', value: 90, channels: ['email'] } },
  { family: 'alerts: WhatsApp number', route: postWhatsappNumber, path: '/api/alerts/whatsapp', caller: 'subscriber', body: { phone: 'not a number' } },
  { family: 'alerts: WhatsApp code', route: verifyWhatsappNumber, path: '/api/alerts/whatsapp/verify', caller: 'subscriber', body: { code: 'x' } },
  { family: 'saved views', route: saveView, path: '/api/views', caller: 'subscriber', body: { name: '', series: [] } },
  // Meta posts application/json; the signature here is wrong, so the JSON control is a 401.
  { family: 'WhatsApp webhook', route: whatsappWebhook, path: '/api/whatsapp/webhook', caller: 'anyone', body: { object: 'whatsapp_business_account', entry: [] }, headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` } },
  { family: 'admin: WhatsApp sandbox', route: adminWhatsappSend, path: '/api/admin/whatsapp/send', caller: 'admin', body: { from: 'x', text: '' } },
  { family: 'admin: users', route: grant, path: '/api/admin/users/u/grant', params: { uid: 'media-target' }, caller: 'admin', body: { plan: 'Platinum' } },
  { family: 'admin: users', route: extend, path: '/api/admin/users/u/extend', params: { uid: 'media-target' }, caller: 'admin', body: { days: 30 } },
  { family: 'admin: users', route: revoke, path: '/api/admin/users/u/revoke', params: { uid: 'media-target' }, caller: 'admin', body: {} },
  { family: 'admin: roles', route: role, path: '/api/admin/users/u/role', params: { uid: 'media-target' }, caller: 'admin', body: { role: 'editor' } },
  { family: 'admin: prices', route: setPoint, path: '/api/admin/prices/fx/set', params: { series: 'fx.usdinr' }, caller: 'admin', body: { date: '2026-02-30', value: 80 } },
  { family: 'admin: prices', route: deletePoint, path: '/api/admin/prices/fx/delete', params: { series: 'fx.usdinr' }, caller: 'admin', body: { date: '2026-02-30', expected: 80 } },
  { family: 'admin: city-wise', route: setCityPrice, path: '/api/admin/citywise/mumbai/set', params: { city: 'mumbai' }, caller: 'admin', body: { date: '2026-02-30', grade: 'ppRaffia', price: 101 } },
  { family: 'admin: offers', route: setOffers, path: '/api/admin/offers/china/set', params: { country: 'china' }, caller: 'admin', body: { date: '2026-02-30', data: { PP: { raffia: 1000 } } } },
  { family: 'admin: banners', route: moveBanner, path: '/api/admin/banners/b/move', params: { id: 'media-banner' }, caller: 'admin', body: { direction: 'up' } },
  { family: 'admin: banners', route: removeBanner, path: '/api/admin/banners/b/remove', params: { id: 'media-banner' }, caller: 'admin', body: {} },
];

/** What a cross-site HTML form (or a careless client) can send. */
const NOT_JSON: readonly (string | null)[] = [
  'application/x-www-form-urlencoded',
  'text/plain;charset=UTF-8',
  'multipart/form-data; boundary=----x',
  'application/jsonp',
  'text/json',
  null,
];

function sessionFor(caller: Caller): Session | null {
  if (caller === 'buyer') return sessionOf(buyer);
  if (caller === 'subscriber') return sessionOf(buyer, 'full');
  if (caller === 'admin') return sessionOf(admin);
  return null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
async function call(row: Row, contentType: string | null): Promise<{ status: number; json: any }> {
  const url = new URL(row.path, ORIGIN);
  const headers = new Headers({ origin: ORIGIN, ...row.headers });
  const body = new TextEncoder().encode(JSON.stringify(row.body));
  // A Request with a body always gets a type; a body "without one" is sent as raw bytes.
  const request = new Request(url, { method: row.method ?? 'POST', headers, body });
  if (contentType === null) request.headers.delete('content-type');
  else request.headers.set('content-type', contentType);
  const context = {
    request,
    url,
    params: row.params ?? {},
    locals: { session: sessionFor(row.caller) },
    site: new URL(ORIGIN),
    clientAddress: `127.0.0.${Math.floor(Math.random() * 200) + 2}`,
    cookies: { get: () => undefined, set: () => undefined, delete: () => undefined, has: () => false },
  } as unknown as APIContext;
  const response = await row.route(context);
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

describe('JSON endpoints refuse bodies not declared as JSON', () => {
  for (const row of ROWS) {
    it(`${row.family}: ${row.method ?? 'POST'} ${row.path} answers 415 for every other media type`, async () => {
      for (const type of NOT_JSON) {
        const answer = await call(row, type);
        expect({ type, status: answer.status, code: answer.json?.error?.code }).toEqual({ type, status: 415, code: 'unsupported_media_type' });
        expect(answer.json.error.message).toMatch(/application\/json/);
      }
    });

    it(`${row.family}: ${row.method ?? 'POST'} ${row.path} reads the same body sent as JSON (not a 415, no server error)`, async () => {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
        const answer = await call(row, type);
        expect(answer.status, `${type}: ${JSON.stringify(answer.json)}`).not.toBe(415);
        expect(answer.status, `${type}: ${JSON.stringify(answer.json)}`).toBeLessThan(500);
      }
    });
  }

  it('a form-encoded order request creates no order; the same request as JSON does', async () => {
    const row = ROWS.find((r) => r.route === makePayment)!;
    const before = (await db.listOrdersByUid(buyer.uid)).length;
    expect((await call(row, 'application/x-www-form-urlencoded')).status).toBe(415);
    expect(await db.listOrdersByUid(buyer.uid)).toHaveLength(before);
    const created = await call(row, 'application/json');
    expect(created.status).toBe(200);
    expect(await db.listOrdersByUid(buyer.uid)).toHaveLength(before + 1);
  });
});
