/**
 * Price delivery's pure parts, table-tested: instruments from the catalog, rights from the plan
 * table, phone numbers, the alert step (once per crossing), the price bot's reading, message
 * words and templates, the hour rule, signed unsubscribe links, webhook signatures and payloads,
 * and every body the /api/alerts endpoints accept (with bad input).
 */
import { describe, expect, it } from 'vitest';
import { INITIAL_ALERT_STATE, stepAlert, type AlertState } from '../../src/lib/delivery/alerts.ts';
import { findInstrument, instruments, instrumentsOfSeries } from '../../src/lib/delivery/instruments.ts';
import { alertHeadline, priceLine, renderTemplate, templateParam, WHATSAPP_TEMPLATES } from '../../src/lib/delivery/messages.ts';
import { displayNumber, whatsappNumberOf } from '../../src/lib/delivery/phone.ts';
import { editDistance, matchInstrument, readBotMessage } from '../../src/lib/delivery/priceBot.ts';
import { deliveryRightsOf } from '../../src/lib/delivery/rights.ts';
import { deliveryDayOf, isDailyUpdateDue, istHourOf } from '../../src/lib/delivery/schedule.ts';
import { plans } from '../../src/lib/plans.ts';
import { allSeries } from '../../src/lib/seriesCatalog.ts';
import { AlertBody, CodeBody, NumberBody, SettingsBody } from '../../src/server/delivery/http.ts';
import { listUnsubscribeHeaders, readUnsubscribeToken, unsubscribeToken } from '../../src/server/delivery/links.ts';
import { signatureHolds, signatureOf, subscriptionChallenge, WebhookPayload, inboundTextPayload, messagesOf } from '../../src/server/delivery/webhook.ts';
import { graphRequestOf, textOf } from '../../src/server/delivery/whatsapp.ts';
import { inServiceWindow } from '../../src/server/delivery/dispatch.ts';

const NOW = new Date('2026-11-24T04:30:00Z'); // 10:00 IST
const inAYear = '2027-11-24T00:00:00.000Z';

describe('instruments', () => {
  it('every catalog series and every city × grade, with unique ids, a link and words', () => {
    expect(instruments.length).toBe(allSeries.length + 7 * 17);
    expect(new Set(instruments.map((i) => i.id)).size).toBe(instruments.length);
    for (const i of instruments) {
      expect(i.path, i.id).toMatch(/^\//);
      expect(i.words.length, i.id).toBeGreaterThan(0);
    }
    expect(findInstrument('city.mumbai.ppRaffia')).toMatchObject({ label: 'PP Raffia · Mumbai', unit: 'Rs/Kg', path: '/indian-bazaar/citywise?city=mumbai', source: { kind: 'city', city: 'mumbai', grade: 'ppRaffia' } });
    expect(findInstrument('feedstock.naphtha.japan')).toMatchObject({ path: '/crude/Naphtha?country=japan', unit: 'US$/MT' });
    expect(findInstrument('historical.ppRaffia.cif-ns')?.path).toBe('/historical-data/PP?polymer=ppRaffia');
    expect(findInstrument('city.nowhere.ppRaffia')).toBeUndefined();
    expect(instrumentsOfSeries('fx.usdinr').map((i) => i.id)).toEqual(['fx.usdinr']);
    expect(instrumentsOfSeries('no.such')).toEqual([]);
  });

  it("every plan's default daily prices are instruments", () => {
    for (const plan of plans) for (const id of plan.delivery.dailyDefaults) expect(findInstrument(id), `${plan.id}: ${id}`).toBeDefined();
  });
});

describe('delivery rights follow the plan table', () => {
  const facts = (record: Record<string, unknown> | null) => ({ uid: 'u', record });
  it.each([
    ['anonymous', null, [false, false, false]],
    ['free (trial over)', facts({ role: 'user', subscribed: false, createdAt: '01-10-2026' }), [false, false, false]],
    ['trial', facts({ role: 'user', subscribed: false, createdAt: '24-11-2026' }), [true, true, true]],
    ['Basic', facts({ role: 'user', subscribed: true, plan: 'Basic', createdAt: '01-01-2026', expiresAt: inAYear }), [true, false, false]],
    ['Standard', facts({ role: 'user', subscribed: true, plan: 'Standard', createdAt: '01-01-2026', expiresAt: inAYear }), [true, false, false]],
    ['Premium', facts({ role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2026', expiresAt: inAYear }), [true, true, true]],
    ['Platinum', facts({ role: 'user', subscribed: true, plan: 'Platinum', createdAt: '01-01-2026', expiresAt: inAYear }), [true, true, true]],
    ['expired Premium', facts({ role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2025', expiresAt: '2026-11-01T00:00:00Z' }), [false, false, false]],
    ['admin', facts({ role: 'admin', subscribed: false, createdAt: '01-01-2020' }), [true, true, true]],
  ] as const)('%s', (_, session, [daily, alerts, bot]) => {
    const rights = deliveryRightsOf(session as never, NOW);
    expect([rights.dailyUpdate, rights.alerts, rights.priceBot]).toEqual([daily, alerts, bot]);
  });
});

describe('WhatsApp numbers', () => {
  it.each([
    ['+91 98200 12345', '919820012345'],
    ['9820012345', '919820012345'],
    ['09820012345', '919820012345'],
    ['+1 (415) 555-0100', '14155550100'],
    ['0044 20 7946 0018', '442079460018'],
    ['  +91-98200-12345 ', '919820012345'],
  ])('%s → %s', (input, number) => expect(whatsappNumberOf(input)).toBe(number));

  it.each(['', 'abc', '12345', '+0 1234 5678', '1234567890123456789', '+91 98200 12345 ext 4', '<script>', '98200\n12345', '+', '+91 98200 12345; DROP'])('refuses %j', (input) => expect(whatsappNumberOf(input)).toBeNull());

  it('shows Indian numbers grouped', () => {
    expect(displayNumber('919820012345')).toBe('+91 98200 12345');
    expect(displayNumber('14155550100')).toBe('+14155550100');
  });
});

describe('alerts fire once per crossing', () => {
  const q = (date: string, value: number) => ({ date, value });
  /** Runs a sequence of latest prices through an alert; returns where it fired. */
  function run(kind: 'above' | 'below' | 'move', threshold: number, start: number, prices: readonly number[]): (number | null)[] {
    let state: AlertState = stepAlert(kind, threshold, INITIAL_ALERT_STATE, q('2026-11-01', start), null, true).state;
    let previous = q('2026-11-01', start);
    return prices.map((value, i) => {
      const latest = q(`2026-11-${String(i + 2).padStart(2, '0')}`, value);
      const step = stepAlert(kind, threshold, state, latest, previous);
      state = step.state;
      previous = latest;
      return step.fires;
    });
  }

  it.each([
    ['above: one crossing, then the same side, back, and again', 'above', 100, 95, [99, 101, 103, 100, 98, 102], [null, 1, null, null, null, 2]],
    ['above: reaching the value exactly is a crossing', 'above', 100, 95, [100, 100.5], [1, null]],
    ['above: created while already above waits for the next crossing', 'above', 100, 105, [106, 99, 101], [null, null, 1]],
    ['below', 'below', 90, 95, [91, 89, 88, 95, 90], [null, 1, null, null, 2]],
    ['move: a 2% day fires once per date', 'move', 2, 100, [101, 103.5, 103.6, 100], [null, 1, null, 2]],
  ] as const)('%s', (_, kind, threshold, start, prices, fired) => expect(run(kind, threshold, start, prices)).toEqual(fired));

  it('an edit that leaves the same latest date does not fire a move again', () => {
    const armed = stepAlert('move', 1, INITIAL_ALERT_STATE, q('2026-11-02', 100), q('2026-11-01', 100), true).state;
    const first = stepAlert('move', 1, armed, q('2026-11-03', 102), q('2026-11-02', 100));
    expect(first.fires).toBe(1);
    expect(stepAlert('move', 1, first.state, q('2026-11-03', 103), q('2026-11-02', 100)).fires).toBeNull();
  });

  it('no price, no step', () => expect(stepAlert('above', 1, INITIAL_ALERT_STATE, null, null)).toEqual({ state: INITIAL_ALERT_STATE, fires: null }));
});

describe('the price bot reads a message', () => {
  it.each([
    ['pp raffia mumbai', 'city.mumbai.ppRaffia'],
    ['PP Raffia, Mumbai?', 'city.mumbai.ppRaffia'],
    ['pp rafia mumbai', 'city.mumbai.ppRaffia'],
    ['price of pp raffia in delhi', 'city.delhi.ppRaffia'],
    ['pp raffia', 'city.mumbai.ppRaffia'],
    ['hdpe film', 'city.mumbai.hdpeFilm'],
    ['lldpe film ahmedabad', 'city.ahmedabad.lldpeFilm'],
    ['naphtha', 'feedstock.naphtha.japan'],
    ['naphta china', 'feedstock.naphtha.china'],
    ['brent', 'feedstock.crude.brent'],
    ['crude oil', 'feedstock.crude.brent'],
    ['usd inr', 'fx.usdinr'],
    ['pp raffia cif', 'historical.ppRaffia.cif-ns'],
    ['pp raffia ex works', 'historical.ppRaffia.mumbai'],
    ['propylene korea', 'feedstock.propylene.korea'],
  ])('%j → %s', (text, id) => {
    const request = readBotMessage(text);
    expect(request.kind).toBe('price');
    expect(request.kind === 'price' && request.instrument.id).toBe(id);
  });

  it.each([
    ['help', 'help'], ['Hi', 'help'], ['', 'unknown'], ['stop', 'stop'], ['STOP', 'stop'], [' Stop ', 'stop'], ['unsubscribe', 'stop'],
    ['start', 'start'], ['START', 'start'], ['stop sending pp prices', 'unknown'], ['gold price', 'unknown'], ['x'.repeat(201), 'unknown'],
    ['🙂🙂', 'help'], ['<script>alert(1)</script>', 'unknown'], ['\u0000\u0001', 'help'],
  ])('%j is %s', (text, kind) => expect(readBotMessage(text).kind).toBe(kind));

  it('suggests close prices when not every word fits', () => {
    const { best, suggestions } = matchInstrument('pp raffia tokyo');
    expect(best).toBeNull();
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions[0]!.id).toContain('ppRaffia');
  });

  it('edit distance forgives a swap and counts edits', () => {
    expect(editDistance('raffia', 'rafifa')).toBe(1);
    expect(editDistance('naphtha', 'naphta')).toBe(1);
    expect(editDistance('hdpe', 'lldpe')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('message words and templates', () => {
  const instrument = findInstrument('city.mumbai.ppRaffia')!;
  it('a price line has the price, its change and the dates', () => {
    expect(priceLine({ instrument, latest: { date: '2026-11-20', value: 104.5 }, previous: { date: '2026-11-13', value: 104 } })).toBe(
      'PP Raffia · Mumbai: 104.50 Rs/kg on 20/11/2026 (+0.50, +0.48% on 13/11/2026)',
    );
    expect(priceLine({ instrument, latest: { date: '2026-11-20', value: 104 }, previous: { date: '2026-11-13', value: 104.5 } })).toContain('(−0.50, −0.48%');
    expect(priceLine({ instrument, latest: { date: '2026-11-20', value: 1234.5 }, previous: null })).toBe('PP Raffia · Mumbai: 1,234.50 Rs/kg on 20/11/2026');
    expect(alertHeadline(instrument, { kind: 'above', value: 110 })).toBe('Price alert: PP Raffia · Mumbai reaches or passes 110.00 Rs/kg');
    expect(alertHeadline(instrument, { kind: 'move', value: 2 })).toBe('Price alert: PP Raffia · Mumbai moves 2.00% or more in a day');
  });

  it('template parameters are one line, bounded; a template renders its body', () => {
    expect(templateParam('a\nb\tc      d')).toBe('a b c   d');
    expect(templateParam('x'.repeat(2000))).toHaveLength(1000);
    expect(renderTemplate(WHATSAPP_TEMPLATES.verificationCode, ['123456'])).toBe('123456 is your PolyIndex verification code. It expires in 10 minutes.');
  });

  it('the Cloud API bodies: free text and templates (auth templates repeat the code on their button)', () => {
    expect(graphRequestOf({ kind: 'text', to: '919820012345', body: 'hello' })).toEqual({
      messaging_product: 'whatsapp', recipient_type: 'individual', to: '919820012345', type: 'text', text: { preview_url: false, body: 'hello' },
    });
    expect(graphRequestOf({ kind: 'template', to: '919820012345', template: 'dailyUpdate', params: ['24/11/2026', 'a\nb', 'http://x/alerts'] })).toEqual({
      messaging_product: 'whatsapp', recipient_type: 'individual', to: '919820012345', type: 'template',
      template: { name: 'polyindex_daily_update', language: { code: 'en' }, components: [{ type: 'body', parameters: [{ type: 'text', text: '24/11/2026' }, { type: 'text', text: 'a b' }, { type: 'text', text: 'http://x/alerts' }] }] },
    });
    const code = graphRequestOf({ kind: 'template', to: '1', template: 'verificationCode', params: ['654321'] }) as { template: { components: unknown[] } };
    expect(code.template.components).toContainEqual({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '654321' }] });
    expect(textOf({ kind: 'template', to: '1', template: 'verificationCode', params: ['654321'] })).toMatch(/^654321 is your/);
    expect(textOf({ kind: 'text', to: '1', body: 'x'.repeat(5000) })).toHaveLength(4096);
  });

  it('free text only inside the 24-hour service window', () => {
    expect(inServiceWindow(null, NOW)).toBe(false);
    expect(inServiceWindow(new Date(NOW.getTime() - 23 * 3_600_000).toISOString(), NOW)).toBe(true);
    expect(inServiceWindow(new Date(NOW.getTime() - 24 * 3_600_000).toISOString(), NOW)).toBe(false);
  });
});

describe('the daily hour is India time', () => {
  it.each([
    ['2026-11-24T03:29:00Z', 8, '2026-11-24'],
    ['2026-11-24T03:30:00Z', 9, '2026-11-24'],
    ['2026-11-24T18:29:00Z', 23, '2026-11-24'],
    ['2026-11-24T18:30:00Z', 0, '2026-11-25'],
  ])('%s is hour %i of %s in India', (instant, hour, day) => {
    expect(istHourOf(new Date(instant))).toBe(hour);
    expect(deliveryDayOf(new Date(instant))).toBe(day);
  });
  it('an update is due from its hour on, the whole day', () => {
    expect(isDailyUpdateDue(9, new Date('2026-11-24T03:29:00Z'))).toBe(false);
    expect(isDailyUpdateDue(9, new Date('2026-11-24T03:30:00Z'))).toBe(true);
    expect(isDailyUpdateDue(9, new Date('2026-11-24T18:00:00Z'))).toBe(true);
  });
});

describe('signed unsubscribe links', () => {
  const secret = 'a'.repeat(64);
  it('round-trip for the daily update and for one alert; headers name the one-click endpoint', () => {
    const daily = unsubscribeToken(secret, { uid: 'u1', what: 'daily' });
    expect(readUnsubscribeToken(secret, daily)).toEqual({ uid: 'u1', what: 'daily' });
    const alert = unsubscribeToken(secret, { uid: 'u1', what: 'alert', alertId: 'al_x' });
    expect(readUnsubscribeToken(secret, alert)).toEqual({ uid: 'u1', what: 'alert', alertId: 'al_x' });
    expect(listUnsubscribeHeaders('http://127.0.0.1:4321', daily)).toEqual({
      'List-Unsubscribe': `<http://127.0.0.1:4321/api/unsubscribe?token=${encodeURIComponent(daily)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('refuses tampered, foreign and malformed tokens', () => {
    const token = unsubscribeToken(secret, { uid: 'u1', what: 'daily' });
    const [payload, mac] = token.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify(['u2', 'daily'])).toString('base64url');
    for (const bad of [`${other}.${mac}`, unsubscribeToken('b'.repeat(64), { uid: 'u1', what: 'daily' }), `${payload}.`, payload, '', '.', 'x'.repeat(700), `${payload}.${mac}x`, `${payload}!.${mac}`]) {
      expect(readUnsubscribeToken(secret, bad), bad).toBeNull();
    }
    const odd = Buffer.from(JSON.stringify(['u1', 'everything'])).toString('base64url');
    const forged = unsubscribeToken(secret, { uid: 'u1', what: 'daily' }).replace(payload, odd);
    expect(readUnsubscribeToken(secret, forged)).toBeNull();
  });
});

describe('the WhatsApp webhook', () => {
  const secret = 'app-secret';
  const body = JSON.stringify(inboundTextPayload({ from: '919820012345', name: 'x', id: 'wamid.1', text: 'naphtha', at: NOW, phoneNumberId: 'sandbox' }));
  const bytes = new TextEncoder().encode(body);

  it('checks X-Hub-Signature-256 over the raw body', () => {
    expect(signatureHolds(secret, bytes, signatureOf(secret, body))).toBe(true);
    expect(signatureHolds(secret, bytes, signatureOf(secret, body).toUpperCase().replace('SHA256', 'sha256'))).toBe(true);
    for (const bad of [null, '', 'sha256=', signatureOf('other', body), signatureOf(secret, `${body} `), `sha1=${'0'.repeat(40)}`, signatureOf(secret, body).slice(0, -1), `sha256=${'z'.repeat(64)}`]) {
      expect(signatureHolds(secret, bytes, bad), String(bad)).toBe(false);
    }
  });

  it('answers the challenge only for subscribe with the right verify token', () => {
    const params = (query: string) => new URLSearchParams(query);
    expect(subscriptionChallenge(params('hub.mode=subscribe&hub.verify_token=tok&hub.challenge=12345'), 'tok')).toBe('12345');
    for (const query of ['hub.mode=subscribe&hub.verify_token=tik&hub.challenge=1', 'hub.mode=unsubscribe&hub.verify_token=tok&hub.challenge=1', 'hub.mode=subscribe&hub.verify_token=tok', 'hub.verify_token=tok&hub.challenge=1', `hub.mode=subscribe&hub.verify_token=tok&hub.challenge=${'1'.repeat(300)}`, '']) {
      expect(subscriptionChallenge(params(query), 'tok'), query).toBeNull();
    }
  });

  it("reads Meta's payload; refuses shapes that are not it", () => {
    const parsed = WebhookPayload.parse(JSON.parse(body));
    expect(messagesOf(parsed)).toEqual([{ from: '919820012345', id: 'wamid.1', timestamp: String(Math.floor(NOW.getTime() / 1000)), type: 'text', text: { body: 'naphtha' } }]);
    const statusOnly = { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value: { statuses: [{ id: 'wamid.x', status: 'read' }] } }] }] };
    expect(messagesOf(WebhookPayload.parse(statusOnly))).toEqual([]);
    const bad = [
      {},
      { object: 'page', entry: [] },
      { object: 'whatsapp_business_account' },
      { object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'messages', value: { messages: [{ from: 'abc', id: 'x', type: 'text' }] } }] }] },
      { object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'messages', value: { messages: [{ from: '919820012345', id: '', type: 'text' }] } }] }] },
      { object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'messages', value: { messages: [{ from: '919820012345', id: 'x', type: 'text', text: { body: 'x'.repeat(5000) } }] } }] }] },
      { object: 'whatsapp_business_account', entry: 'no' },
    ];
    for (const b of bad) expect(WebhookPayload.safeParse(b).success, JSON.stringify(b).slice(0, 80)).toBe(false);
  });
});

describe('bodies of the /api/alerts endpoints', () => {
  const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) => schema.safeParse(value).success;
  it('settings', () => {
    expect(ok(SettingsBody, { series: ['fx.usdinr', 'city.mumbai.ppRaffia'], email: true, whatsapp: false, hour: 9 })).toBe(true);
    expect(ok(SettingsBody, { series: [], email: false, whatsapp: false, hour: 0 })).toBe(true);
    for (const bad of [
      null, [], {}, { series: ['fx.usdinr'], email: true, whatsapp: false },
      { series: ['nope'], email: true, whatsapp: false, hour: 9 },
      { series: ['fx.usdinr', 'fx.usdinr'], email: true, whatsapp: false, hour: 9 },
      { series: 'fx.usdinr', email: true, whatsapp: false, hour: 9 },
      { series: Array.from({ length: 31 }, (_, i) => findInstrumentAt(i)), email: true, whatsapp: false, hour: 9 },
      { series: [], email: 'yes', whatsapp: false, hour: 9 },
      { series: [], email: true, whatsapp: false, hour: 24 },
      { series: [], email: true, whatsapp: false, hour: 9.5 },
      { series: [], email: true, whatsapp: false, hour: '9' },
      { series: ['x'.repeat(10_000)], email: true, whatsapp: false, hour: 9 },
    ]) expect(ok(SettingsBody, bad), JSON.stringify(bad).slice(0, 80)).toBe(false);
  });

  it('alerts', () => {
    expect(ok(AlertBody, { series: 'fx.usdinr', kind: 'above', value: 90, channels: ['email'] })).toBe(true);
    expect(ok(AlertBody, { series: 'city.mumbai.ppRaffia', kind: 'move', value: 2.5, channels: ['email', 'whatsapp'] })).toBe(true);
    for (const bad of [
      {}, { series: 'fx.usdinr', kind: 'above', value: 90 }, { series: 'fx.usdinr', kind: 'sideways', value: 90, channels: ['email'] },
      { series: 'none', kind: 'above', value: 90, channels: ['email'] }, { series: 'fx.usdinr', kind: 'above', value: '90', channels: ['email'] },
      { series: 'fx.usdinr', kind: 'above', value: 90, channels: [] }, { series: 'fx.usdinr', kind: 'above', value: 90, channels: ['sms'] },
      { series: 'fx.usdinr', kind: 'above', value: 90, channels: ['email', 'email'] }, { series: 'fx.usdinr', kind: 'above', value: null, channels: ['email'] },
    ]) expect(ok(AlertBody, bad), JSON.stringify(bad)).toBe(false);
  });

  it('numbers and codes', () => {
    expect(ok(NumberBody, { number: '+91 98200 12345', consent: true })).toBe(true);
    for (const bad of [{ number: '+91 98200 12345' }, { number: '+91 98200 12345', consent: 'yes' }, { number: 9820012345, consent: true }, { number: 'x'.repeat(31), consent: true }]) expect(ok(NumberBody, bad), JSON.stringify(bad)).toBe(false);
    expect(ok(CodeBody, { code: '012345' })).toBe(true);
    for (const bad of [{}, { code: 12345 }, { code: '12345' }, { code: '1234567' }, { code: '12a456' }, { code: ' 123456' }]) expect(ok(CodeBody, bad), JSON.stringify(bad)).toBe(false);
  });
});

const findInstrumentAt = (i: number): string => instruments[i]!.id;
