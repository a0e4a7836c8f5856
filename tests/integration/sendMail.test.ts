import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { APIContext } from 'astro';
import { simpleParser, type ParsedMail } from 'mailparser';
import { beforeEach, describe, expect, it } from 'vitest';
import { POST as enquiry } from '../../src/pages/api/enquiries/[kind].ts';
import { POST as sendMail } from '../../src/pages/api/sendMail.ts';
import { enquiryForms, enquirySchemas } from '../../src/server/enquiries.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { mailRateLimiter, operatorEmail, outboxDir, outboxMessage } from '../../src/server/mail/index.ts';
import { isOutboxFileName } from '../../src/server/mail/outbox.ts';
import { store } from '../../src/server/runtime.ts';
import { newUserRecord } from '../../src/server/users.ts';
import { TEST_DATA_DIR } from './env.ts';
import { apiContext, uniqueEmail } from './helpers.ts';

const ORIGIN = 'http://127.0.0.1:4321';
let ipCounter = 0;

function post(path: string, body: unknown, options: { session?: Session | null; headers?: Record<string, string>; ip?: string; raw?: string } = {}) {
  const { context } = apiContext(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: ORIGIN, ...options.headers },
    body: options.raw ?? JSON.stringify(body),
    locals: { session: options.session ?? null },
    params: path.startsWith('/api/enquiries/') ? { kind: path.split('/').at(-1)! } : {},
  });
  Object.defineProperty(context, 'clientAddress', { value: options.ip ?? `10.0.0.${++ipCounter}` });
  return context;
}

const call = (handler: (c: APIContext) => Response | Promise<Response>, context: APIContext) => Promise.resolve(handler(context));

const outboxFiles = (): string[] => {
  try {
    return readdirSync(outboxDir).filter(isOutboxFileName).sort();
  } catch {
    return [];
  }
};

/** Runs `action` and returns the messages it added to the outbox, parsed. */
async function newMail(action: () => Promise<Response>): Promise<{ response: Response; mails: ParsedMail[] }> {
  const before = new Set(outboxFiles());
  const response = await action();
  const added = outboxFiles().filter((f) => !before.has(f));
  const mails = await Promise.all(added.map(async (f) => simpleParser((await outboxMessage(f))!)));
  return { response, mails };
}

const toOf = (mail: ParsedMail): string[] =>
  (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));

function session(email: string, entitlement: Session['entitlement'] = 'none'): Session {
  return { uid: `uid-${email}`, email, record: null, entitlement, inTrial: false };
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; field?: string } }).error;
}

beforeEach(() => mailRateLimiter.clear());

describe('POST /api/sendMail', () => {
  it('is not an open relay: an anonymous to=someone@else goes to the operator, Reply-To the visitor', async () => {
    const { response, mails } = await newMail(() =>
      call(sendMail, post('/api/sendMail', { to: 'someone@else.example', subject: 'Relay me', content: 'Buy cheap <pills>', replyTo: 'visitor@example.test' })),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sent: true, recipient: 'operator' });
    expect(mails).toHaveLength(1);
    const [mail] = mails as [ParsedMail];
    expect(toOf(mail)).toEqual([operatorEmail]);
    expect(mail.cc).toBeUndefined();
    expect(mail.bcc).toBeUndefined();
    expect(mail.replyTo?.value[0]?.address).toBe('visitor@example.test');
    expect(mail.subject).toBe('[Website] Relay me');
    expect(String(mail.html)).toContain('Buy cheap &lt;pills&gt;');
    expect(JSON.stringify(mail.headers.get('to'))).not.toContain('else.example');
  });

  it('uses the signed-in e-mail as Reply-To, whatever reply-to or to the body names', async () => {
    const { response, mails } = await newMail(() =>
      call(sendMail, post('/api/sendMail', { to: 'victim@else.example', replyTo: 'victim@else.example', subject: 'Hello', content: 'Question' }, { session: session('member@example.test') })),
    );
    expect(response.status).toBe(200);
    expect(toOf(mails[0]!)).toEqual([operatorEmail]);
    expect(mails[0]!.replyTo?.value[0]?.address).toBe('member@example.test');
  });

  it('lets an administrator write to a user, and only to a user', async () => {
    const userEmail = uniqueEmail('reader');
    await (await store()).createUser(newUserRecord({ uid: `uid-${userEmail}`, email: userEmail }, new Date()));
    const admin = session('admin@polyindex.test', 'admin');

    const { response, mails } = await newMail(() => call(sendMail, post('/api/sendMail', { to: userEmail, subject: 'Your plan', content: 'Renewal' }, { session: admin })));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ recipient: 'user' });
    expect(toOf(mails[0]!)).toEqual([userEmail]);
    expect(mails[0]!.replyTo?.value[0]?.address).toBe('admin@polyindex.test');

    const stranger = await newMail(() => call(sendMail, post('/api/sendMail', { to: 'stranger@else.example', subject: 'x', content: 'y' }, { session: admin })));
    expect(stranger.response.status).toBe(400);
    expect(await errorOf(stranger.response)).toMatchObject({ field: 'to' });
    expect(stranger.mails).toHaveLength(0);
  });

  it.each([
    ['empty subject', { subject: '  ', content: 'x', replyTo: 'a@example.test' }, 'subject'],
    ['missing subject', { content: 'x', replyTo: 'a@example.test' }, 'subject'],
    ['empty content', { subject: 'x', content: '', replyTo: 'a@example.test' }, 'content'],
    ['too long content', { subject: 'x', content: 'y'.repeat(5001), replyTo: 'a@example.test' }, 'content'],
    ['too long subject', { subject: 'x'.repeat(201), content: 'y', replyTo: 'a@example.test' }, 'subject'],
    ['bad to', { to: 'not-an-address', subject: 'x', content: 'y', replyTo: 'a@example.test' }, 'to'],
    ['bad reply-to', { subject: 'x', content: 'y', replyTo: 'nobody' }, 'replyTo'],
    ['no way to reply (anonymous)', { subject: 'x', content: 'y' }, 'replyTo'],
    ['subject not a string', { subject: 42, content: 'y', replyTo: 'a@example.test' }, 'subject'],
  ])('400 for %s, naming the field, sending nothing', async (_name, body, field) => {
    const { response, mails } = await newMail(() => call(sendMail, post('/api/sendMail', body)));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'invalid_input', field });
    expect(mails).toHaveLength(0);
  });

  it.each([
    ['a body that is not JSON', { raw: 'subject=x', headers: {} }],
    ['an empty body', { raw: '', headers: {} }],
    ['a JSON array', { raw: '[1,2]', headers: {} }],
  ])('400 for %s', async (_name, options) => {
    const response = await call(sendMail, post('/api/sendMail', null, options));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toMatch(/invalid_(body|input)/);
  });

  it('403 for a cross-origin post, and for one without Origin or Referer', async () => {
    const body = { subject: 'x', content: 'y', replyTo: 'a@example.test' };
    const foreign = await call(sendMail, post('/api/sendMail', body, { headers: { Origin: 'https://evil.example' } }));
    expect(foreign.status).toBe(403);
    expect(await errorOf(foreign)).toMatchObject({ code: 'cross_origin' });
    const { context } = apiContext('/api/sendMail', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await call(sendMail, context)).status).toBe(403);
  });

  it('429 with Retry-After after 5 messages a minute from one IP', async () => {
    const body = { subject: 'Flood', content: 'y', replyTo: 'a@example.test' };
    for (let i = 0; i < 5; i++) expect((await call(sendMail, post('/api/sendMail', body, { ip: '192.0.2.7' }))).status).toBe(200);
    const { response, mails } = await newMail(() => call(sendMail, post('/api/sendMail', body, { ip: '192.0.2.7' })));
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await errorOf(response)).toMatchObject({ code: 'rate_limited' });
    expect(mails).toHaveLength(0);
    // Another address is not affected.
    expect((await call(sendMail, post('/api/sendMail', body, { ip: '192.0.2.8' }))).status).toBe(200);
  });

  it('limits a signed-in user across IPs', async () => {
    const member = session('busy@example.test');
    const body = { subject: 'Again', content: 'y' };
    for (let i = 0; i < 5; i++) expect((await call(sendMail, post('/api/sendMail', body, { session: member }))).status).toBe(200);
    expect((await call(sendMail, post('/api/sendMail', body, { session: member }))).status).toBe(429);
  });
});

const goodEnquiries = {
  'buy-sell': { side: 'Sell', polymer: 'PP', grade: 'Raffia', quantity: 25, city: 'Ahmedabad', name: 'Ravi Traders', email: 'ravi@example.test', phone: '+91 98200 12345', message: '' },
  contact: { name: 'Meera', email: 'meera@example.test', subject: 'Price data', message: 'Where is PVC K67?' },
  'event-registration': { name: 'Anil', email: 'anil@example.test', phone: '+91 22 4000 7000', city: 'Pune', event: 'Price-outlook seminar', seats: '2' },
  'press-release': { name: 'Neha', email: 'neha@example.test', company: 'Acme Polymers', headline: 'Acme adds a PP line', message: 'Text of the release' },
  'whatsapp-chatbot': { name: 'Sunil', email: 'sunil@example.test', phone: '+919820012345', products: 'PP, HDPE' },
} as const;

describe('POST /api/enquiries/{kind}', () => {
  it.each(Object.entries(goodEnquiries))('%s: mails the operator (Reply-To the sender) and confirms to the sender', async (kind, body) => {
    const { response, mails } = await newMail(() => call(enquiry, post(`/api/enquiries/${kind}`, body)));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, kind, confirmation: true });
    expect(mails).toHaveLength(2);
    const toOperator = mails.find((m) => toOf(m).includes(operatorEmail))!;
    const toSender = mails.find((m) => toOf(m).includes(body.email))!;
    expect(toOperator.replyTo?.value[0]?.address).toBe(body.email);
    expect(toOperator.subject).toMatch(/^\[Enquiry: /);
    expect(toOperator.text).toContain(body.name);
    expect(toSender.subject).toMatch(/^We received your enquiry/);
    expect(toSender.replyTo?.value[0]?.address).toBe(operatorEmail);
  });

  it('puts the buy-sell lead in the subject', async () => {
    const { mails } = await newMail(() => call(enquiry, post('/api/enquiries/buy-sell', goodEnquiries['buy-sell'])));
    expect(mails.find((m) => toOf(m).includes(operatorEmail))?.subject).toBe('[Enquiry: Post a buy or sell enquiry] Sell PP Raffia, 25 t, Ahmedabad');
  });

  it.each([
    ['buy-sell', { ...goodEnquiries['buy-sell'], side: 'Lease' }, 'side'],
    ['buy-sell', { ...goodEnquiries['buy-sell'], quantity: -3 }, 'quantity'],
    ['buy-sell', { ...goodEnquiries['buy-sell'], quantity: 'lots' }, 'quantity'],
    ['buy-sell', { ...goodEnquiries['buy-sell'], polymer: 'Gold' }, 'polymer'],
    ['buy-sell', { ...goodEnquiries['buy-sell'], phone: 'call me' }, 'phone'],
    ['contact', { ...goodEnquiries.contact, email: 'meera' }, 'email'],
    ['contact', { ...goodEnquiries.contact, message: ' ' }, 'message'],
    ['contact', { ...goodEnquiries.contact, name: 'x'.repeat(101) }, 'name'],
    ['press-release', { ...goodEnquiries['press-release'], releaseDate: 'tomorrow' }, 'releaseDate'],
    ['event-registration', { ...goodEnquiries['event-registration'], seats: 0 }, 'seats'],
  ])('%s: 400 naming %j', async (kind, body, field) => {
    const { response, mails } = await newMail(() => call(enquiry, post(`/api/enquiries/${kind}`, body)));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'invalid_input', field });
    expect(mails).toHaveLength(0);
  });

  it.each(
    Object.entries(goodEnquiries).flatMap(([kind, body]) =>
      enquiryForms[kind as keyof typeof goodEnquiries].fields.filter((f) => f.required).map((f) => [kind, f.name, body] as const),
    ),
  )('%s: a missing required %s is a 400 naming it', async (kind, field, body) => {
    const { [field]: _dropped, ...rest } = body as Record<string, unknown>;
    const response = await call(enquiry, post(`/api/enquiries/${kind}`, rest));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ field });
  });

  it('every form field the island shows is validated by its schema', () => {
    for (const [kind, form] of Object.entries(enquiryForms)) {
      expect(Object.keys(enquirySchemas[kind as keyof typeof enquirySchemas].shape).toSorted()).toEqual([...form.fields.map((f) => f.name), 'website'].toSorted());
    }
  });

  it('names the bad field', async () => {
    const response = await call(enquiry, post('/api/enquiries/buy-sell', { ...goodEnquiries['buy-sell'], quantity: -3 }));
    expect(await errorOf(response)).toMatchObject({ code: 'invalid_input', field: 'quantity' });
  });

  it('a filled honeypot is told "received" and nothing is sent', async () => {
    const { response, mails } = await newMail(() => call(enquiry, post('/api/enquiries/contact', { ...goodEnquiries.contact, website: 'http://spam.example' })));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true });
    expect(mails).toHaveLength(0);
  });

  it('404 for an unknown form, 403 cross-origin, 400 for non-JSON, 429 when flooding', async () => {
    expect((await call(enquiry, post('/api/enquiries/nothing', goodEnquiries.contact))).status).toBe(404);
    expect((await call(enquiry, post('/api/enquiries/contact', goodEnquiries.contact, { headers: { Origin: 'https://evil.example' } }))).status).toBe(403);
    expect((await call(enquiry, post('/api/enquiries/contact', null, { raw: 'name=x' }))).status).toBe(400);
    for (let i = 0; i < 5; i++) await call(enquiry, post('/api/enquiries/contact', { ...goodEnquiries.contact, website: 'bot' }, { ip: '198.51.100.9' }));
    const limited = await call(enquiry, post('/api/enquiries/contact', goodEnquiries.contact, { ip: '198.51.100.9' }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).not.toBeNull();
  });
});

it('the outbox lives under DATA_DIR', () => {
  expect(outboxDir).toBe(resolve(TEST_DATA_DIR, 'outbox'));
});

describe('payment receipt', () => {
  it('mails the buyer a receipt (the embedded default: into the outbox)', async () => {
    const { sendReceipt } = await import('../../src/server/payments/receipt.ts');
    const email = uniqueEmail('buyer');
    const user = { ...newUserRecord({ uid: `uid-${email}`, email, name: 'Ravi <Buyer>' }, new Date()), subscribed: true, plan: 'Premium', expiresAt: '2027-11-22T00:00:00.000Z' };
    const order = {
      id: 'order_sbx_test1', uid: user.uid, plan: 'Premium', amount: 1_199_900, currency: 'INR', receipt: 'rcpt_test_1', status: 'paid' as const,
      paymentId: 'pay_sbx_1', signature: 'sig', failureReason: null, createdAt: '2026-11-22T00:00:00Z', updatedAt: '2026-11-22T00:00:00Z',
    };
    const { mails } = await newMail(async () => {
      await sendReceipt({ user, order });
      return new Response(null);
    });
    expect(mails).toHaveLength(1);
    const [mail] = mails as [ParsedMail];
    expect(toOf(mail)).toEqual([email]);
    expect(mail.subject).toBe('Your PolyIndex receipt: Premium plan');
    expect(mail.text).toContain('order_sbx_test1');
    expect(mail.text).toContain('₹11,999');
    expect(String(mail.html)).toContain('Thank you, Ravi &lt;Buyer&gt;');
  });

  it('sends nothing to a phone-only account', async () => {
    const { sendReceipt } = await import('../../src/server/payments/receipt.ts');
    const user = { ...newUserRecord({ uid: 'uid-phone-only', phone_number: '+919820012345' }, new Date()), plan: 'Basic' };
    const order = {
      id: 'order_sbx_test2', uid: user.uid, plan: 'Basic', amount: 100, currency: 'INR', receipt: 'r2', status: 'paid' as const,
      paymentId: null, signature: null, failureReason: null, createdAt: '', updatedAt: '',
    };
    const { mails } = await newMail(async () => {
      await sendReceipt({ user, order });
      return new Response(null);
    });
    expect(mails).toHaveLength(0);
  });
});
