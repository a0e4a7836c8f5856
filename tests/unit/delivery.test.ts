/**
 * Price delivery's pure parts, table-tested: instruments from the catalog, rights from the plan
 * table, phone numbers, the alert step (once per crossing), the price bot's reading, message
 * words and templates, the hour rule, signed unsubscribe links, webhook signatures and payloads,
 * and every body the /api/alerts endpoints accept (with bad input).
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INITIAL_ALERT_STATE, MOVE_PERCENT, moveProblem, stepAlert, type AlertState } from '../../src/lib/delivery/alerts.ts';
import { findInstrument, instruments, instrumentsOfSeries } from '../../src/lib/delivery/instruments.ts';
import { alertHeadline, priceLine } from '../../src/lib/delivery/messages.ts';
import { priceText } from '../../src/lib/delivery/quoteLine.ts';
import { formatPrice, priceWithUnit } from '../../src/lib/numbers.ts';
import { dailyUpdateTemplate, graphRefusal, priceAlertTemplate, renderTemplate, templateParam, verificationCodeTemplate } from '../../src/lib/delivery/whatsappTemplates.ts';
import { displayNumber, whatsappNumberOf } from '../../src/lib/delivery/phone.ts';
import { editDistance, matchInstrument, readBotMessage } from '../../src/lib/delivery/priceBot.ts';
import { forecastSeriesOf } from '../../src/lib/delivery/forecastReply.ts';
import { JOB_PATHS } from '../../src/lib/delivery/paths.ts';
import { firstPlanWith, planAndUp, RIGHT_MESSAGES } from '../../src/lib/delivery/planWords.ts';
import { dailyChannelsOf, dailyChoicesOf, dailySeriesOf, deliveryRightsOf, mayChooseDaily, screenOf } from '../../src/lib/delivery/rights.ts';
import { dailySlotOf, deliveryDayOf, deliveryWindowHours, istHourOf, missedNotice } from '../../src/lib/delivery/schedule.ts';
import { loopbackOriginOf, unsafeModeReasons, whatsappSandboxOf } from '../../src/lib/modes.ts';
import { findPlan, plans } from '../../src/lib/plans.ts';
import { allSeries } from '../../src/lib/seriesCatalog.ts';
import { AlertBody, CodeBody, NumberBody, SettingsBody } from '../../src/server/delivery/http.ts';
import { listUnsubscribeHeaders, readUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, unsubscribeToken } from '../../src/server/delivery/links.ts';
import { dailyUpdateMail, welcomeMail } from '../../src/server/delivery/mailMessages.ts';
import { mailDailyUpdate } from '../../src/lib/delivery/dailyUpdate.ts';
import { isJobEndpoint } from '../../src/server/jobs/endpoint.ts';
import { codeStartOf, codeTryOf, whatsappCodeHash, type DeliverySettings, type WhatsAppContact } from '../../src/server/store/delivery.ts';
import { signatureHolds, signatureOf, subscriptionChallenge, WebhookPayload, inboundTextPayload, messagesOf } from '../../src/server/delivery/webhook.ts';
import { graphRequestOf, textOf } from '../../src/server/delivery/whatsapp.ts';
import { inServiceWindow } from '../../src/server/delivery/dispatch.ts';

const NOW = new Date('2026-11-24T04:30:00Z'); // 10:00 IST
const TODAY = '2026-11-24';
const inAYear = '2027-11-24T00:00:00.000Z';

describe('instruments', () => {
  it('every catalog series and every city × grade, with unique ids, a link and words', () => {
    expect(instruments.length).toBe(allSeries.length + 7 * 17);
    expect(new Set(instruments.map((i) => i.id)).size).toBe(instruments.length);
    for (const i of instruments) {
      expect(i.path, i.id).toMatch(/^\//);
      expect(i.words.length, i.id).toBeGreaterThan(0);
    }
    expect(findInstrument('city.mumbai.ppRaffia')).toMatchObject({ label: 'PP Raffia · Mumbai', unit: '₹/kg', path: '/indian-bazaar/citywise?city=mumbai', source: { kind: 'city', city: 'mumbai', grade: 'ppRaffia' } });
    expect(findInstrument('feedstock.naphtha.japan')).toMatchObject({ path: '/crude/Naphtha?country=japan', unit: 'US$/t' });
    expect(findInstrument('historical.ppRaffia.cif-ns')?.path).toBe('/historical-data/PP?polymer=ppRaffia');
    expect(findInstrument('city.nowhere.ppRaffia')).toBeUndefined();
    expect(instrumentsOfSeries('fx.usdinr').map((i) => i.id)).toEqual(['fx.usdinr']);
    expect(instrumentsOfSeries('no.such')).toEqual([]);
  });

  it("every plan's default daily prices are instruments its daily update may carry", () => {
    for (const plan of plans) {
      for (const id of plan.delivery.dailyDefaults) {
        expect(findInstrument(id), `${plan.id}: ${id}`).toBeDefined();
        expect(mayChooseDaily(plan.delivery, findInstrument(id)!), `${plan.id}: ${id}`).toBe(true);
      }
      const choices = plan.delivery.dailyChoices;
      if (choices !== 'all') for (const id of choices.instruments) expect(findInstrument(id), `${plan.id}: ${id}`).toBeDefined();
    }
  });
});

describe("what a plan's daily update may carry (the plan table decides)", () => {
  const basic = findPlan('Basic')!.delivery;
  const standard = findPlan('Standard')!.delivery;
  const premium = findPlan('Premium')!.delivery;
  const ids = (rights: typeof basic) => dailyChoicesOf(rights).map((i) => i.id);

  it('Basic: the benchmark feedstocks, the rupee and every grade of the Mumbai sheet; Standard: every city\'s sheet too; Premium: every price', () => {
    const benchmarks = ['feedstock.crude.brent', 'feedstock.naphtha.japan', 'feedstock.propylene.korea', 'feedstock.ethylene.nea', 'fx.usdinr'];
    const mumbaiSheet = instruments.filter((i) => i.source.kind === 'city' && i.source.city === 'mumbai').map((i) => i.id);
    const everyCitySheet = instruments.filter((i) => i.source.kind === 'city').map((i) => i.id);
    expect(mumbaiSheet).toHaveLength(17);
    expect(everyCitySheet).toHaveLength(7 * 17);
    expect(ids(basic).toSorted()).toEqual([...benchmarks, ...mumbaiSheet].toSorted());
    expect(ids(standard).toSorted()).toEqual([...benchmarks, ...everyCitySheet].toSorted());
    expect(ids(premium)).toEqual(instruments.map((i) => i.id));
    expect(mayChooseDaily(standard, findInstrument('city.delhi.ppRaffia')!)).toBe(true);
    expect(mayChooseDaily(standard, findInstrument('historical.ppRaffia.cif-ns')!)).toBe(false);
  });

  it('goes by the channels the subscriber turned on that the plan includes', () => {
    expect(dailyChannelsOf(basic, { email: true, whatsapp: true })).toEqual(['whatsapp', 'email']);
    expect(dailyChannelsOf(basic, { email: true, whatsapp: false })).toEqual(['email']);
    expect(dailyChannelsOf({ ...basic, channels: ['whatsapp'] }, { email: true, whatsapp: true })).toEqual(['whatsapp']);
    expect(dailyChannelsOf({ ...basic, dailyUpdate: false }, { email: true, whatsapp: true })).toEqual([]);
    expect(dailyChannelsOf(deliveryRightsOf(null, NOW), { email: true, whatsapp: true })).toEqual([]);
  });

  it.each([
    ['city.mumbai.ppRaffia', true], ['city.mumbai.pvcInjection', true], ['fx.usdinr', true], ['feedstock.crude.brent', true],
    ['city.delhi.ppRaffia', false], ['feedstock.va.china', false], ['historical.ppRaffia.mumbai', false], ['historical.ppRaffia.cif-ns', false], ['feedstock.naphtha.china', false],
  ] as const)('Basic may carry %s: %s', (id, allowed) => {
    expect(mayChooseDaily(basic, findInstrument(id)!)).toBe(allowed);
    expect(mayChooseDaily(premium, findInstrument(id)!)).toBe(true);
  });

  it('a run carries the chosen prices the plan allows now, in their order; none left: the defaults', () => {
    expect(dailySeriesOf(basic, ['fx.usdinr', 'feedstock.va.china', 'city.mumbai.ppRaffia'])).toEqual(['fx.usdinr', 'city.mumbai.ppRaffia']);
    expect(dailySeriesOf(basic, ['feedstock.va.china', 'historical.ppRaffia.mumbai'])).toEqual(basic.dailyDefaults);
    expect(dailySeriesOf(basic, [])).toEqual(basic.dailyDefaults);
    expect(dailySeriesOf(basic, ['no.such'])).toEqual(basic.dailyDefaults);
    expect(dailySeriesOf(premium, ['feedstock.va.china'])).toEqual(['feedstock.va.china']);
    expect(dailySeriesOf(deliveryRightsOf(null, NOW), ['fx.usdinr'])).toEqual([]);
  });

  it('plan names in messages come from the plan table', () => {
    expect(firstPlanWith((r) => r.dailyUpdate)?.id).toBe('Basic');
    expect(firstPlanWith((r) => r.alerts)?.id).toBe('Premium');
    expect(planAndUp('priceBot')).toBe('the Premium plan and up');
    expect(RIGHT_MESSAGES.dailyUpdate).toBe('Daily price updates come with the Basic plan and up. Compare plans at /pricing.');
    expect(RIGHT_MESSAGES.alerts).toContain(`${firstPlanWith((r) => r.alerts)!.name} plan and up`);
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

  it.each([
    ['Basic', facts({ role: 'user', subscribed: true, plan: 'Basic', createdAt: '01-01-2026', expiresAt: inAYear }), false],
    ['Standard', facts({ role: 'user', subscribed: true, plan: 'Standard', createdAt: '01-01-2026', expiresAt: inAYear }), false],
    ['Premium', facts({ role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2026', expiresAt: inAYear }), true],
    ['expired Premium', facts({ role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2025', expiresAt: '2026-11-01T00:00:00Z' }), false],
    ['trial', facts({ role: 'user', subscribed: false, createdAt: '24-11-2026' }), true],
    ['admin', facts({ role: 'admin', subscribed: false, createdAt: '01-01-2020' }), true],
  ] as const)("a daily update links a price's screen only when the plan opens it: %s", (_, session, linked) => {
    for (const id of ['city.mumbai.ppRaffia', 'feedstock.naphtha.japan', 'historical.ppRaffia.cif-ns', 'fx.usdinr']) {
      const instrument = findInstrument(id)!;
      expect(screenOf(instrument, session as never, NOW), id).toBe(linked ? instrument.path : null);
    }
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

describe('the move range of an alert is the documented one', () => {
  it.each([0.1, 0.5, 50])('accepts %s %%', (value) => expect(moveProblem(value)).toBeNull());
  it.each([0, 0.05, 0.0999, 50.01, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s %%', (value) => expect(moveProblem(value)).toBe('A move is a per-cent change between 0.1 and 50.'));
  it('docs/delivery.md states the same range', () => {
    expect(readFileSync('docs/delivery.md', 'utf8')).toContain(`a per-cent day move ${MOVE_PERCENT.min}–${MOVE_PERCENT.max}`);
  });
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
    ['naphta china', 'feedstock.naphtha.china'],
    ['brent', 'feedstock.crude.brent'],
    ['crude oil', 'feedstock.crude.brent'],
    ['usd inr', 'fx.usdinr'],
    ['pp raffia cif', 'historical.ppRaffia.cif-ns'],
    ['pp raffia ex works', 'historical.ppRaffia.mumbai'],
    ['propylene korea', 'feedstock.propylene.korea'],
    // The review's rows: an exact product and grade win over a typo of another polymer.
    ['ldpe lamination', 'city.mumbai.ldpeLamination'],
    ['lldpe lamination', 'city.mumbai.lldpeLamination'],
    // Questions traders send.
    ['PP Raffia rate today', 'city.mumbai.ppRaffia'],
    ['what is the price of pp raffia in delhi today', 'city.delhi.ppRaffia'],
    ['pp rafia delhi', 'city.delhi.ppRaffia'],
    ['Polypropylene raffia', 'city.mumbai.ppRaffia'],
    ['pp film pune', 'city.pune.ppFilm'],
    ['pp film puna', 'city.pune.ppFilm'],
    ['pp injection moulding', 'city.mumbai.ppInjectionMoulding'],
    ['PP IM', 'city.mumbai.ppInjectionMoulding'],
    ['pp icp kolkata', 'city.kolkata.ppIcp'],
    ['pp rcp', 'city.mumbai.ppRandomCopolymer'],
    ['pp random copolymer indore', 'city.indore.ppRandomCopolymer'],
    ['HDPE blow molding delhi', 'city.delhi.hdpeBlowMoulding'],
    ['hdpe bm', 'city.mumbai.hdpeBlowMoulding'],
    ['hdpe raffia bangalore', 'city.bangalore.hdpeRaffia'],
    ['hdpe raffia bengaluru', 'city.bangalore.hdpeRaffia'],
    ['hdpe injection', 'city.mumbai.hdpeInjection'],
    ['lldpe roto moulding ahmedabad', 'city.ahmedabad.lldpeRotoMoulding'],
    ['ldpe general pune', 'city.pune.ldpeGeneral'],
    ['pvc injection bombay', 'city.mumbai.pvcInjection'],
    ['pp raffia ex-works mumbai', 'historical.ppRaffia.mumbai'],
    ['pp raffia import price', 'historical.ppRaffia.cif-ns'],
    ['hdpe film cif nhava sheva', 'historical.hdpeFilm.cif-ns'],
    ['brent crude price', 'feedstock.crude.brent'],
    ['crude', 'feedstock.crude.brent'],
    ['dollar rate', 'fx.usdinr'],
    ['usd to inr', 'fx.usdinr'],
    ['naphtha japan', 'feedstock.naphtha.japan'],
    ['naptha japan', 'feedstock.naphtha.japan'],
    ['ethylene sea', 'feedstock.ethylene.sea'],
    ['ethylene nea', 'feedstock.ethylene.nea'],
    ['styrene korea', 'feedstock.styrene.korea'],
    ['sm china', 'feedstock.styrene.china'],
    ['meg', 'feedstock.meg.china'],
    ['pta china', 'feedstock.pta.china'],
    ['vam', 'feedstock.va.china'],
    ['vinyl acetate', 'feedstock.va.china'],
    ['butadiene', 'feedstock.butadiene.china'],
  ])('%j → %s', (text, id) => {
    const request = readBotMessage(text, TODAY);
    expect(request.kind).toBe('price');
    expect(request.kind === 'price' && request.instruments.map((i) => i.id)).toEqual([id]);
  });

  // "hdpe" answered one of four grades without naming the others: a product without its grade
  // (or a feedstock without its market) is every one of them, in one reply.
  it.each([
    ['hdpe', ['city.mumbai.hdpeRaffia', 'city.mumbai.hdpeInjection', 'city.mumbai.hdpeBlowMoulding', 'city.mumbai.hdpeFilm']],
    ['hdpe delhi', ['city.delhi.hdpeRaffia', 'city.delhi.hdpeInjection', 'city.delhi.hdpeBlowMoulding', 'city.delhi.hdpeFilm']],
    ['lldpe', ['city.mumbai.lldpeFilm', 'city.mumbai.lldpeRotoMoulding', 'city.mumbai.lldpeInjection', 'city.mumbai.lldpeLamination']],
    ['ldpe', ['city.mumbai.ldpeGeneral', 'city.mumbai.ldpeLamination']],
    ['pvc', ['city.mumbai.pvcExtrusion', 'city.mumbai.pvcInjection']],
    ['pvc resin price', ['city.mumbai.pvcExtrusion', 'city.mumbai.pvcInjection']],
    ['naphtha', ['feedstock.naphtha.japan', 'feedstock.naphtha.china']],
    ['naptha', ['feedstock.naphtha.japan', 'feedstock.naphtha.china']],
    ['ethylene', ['feedstock.ethylene.nea', 'feedstock.ethylene.sea']],
    ['edc', ['feedstock.edc.sea', 'feedstock.edc.cfr-sea', 'feedstock.edc.cfr-fea']],
    ['pp cif', ['historical.ppRaffia.cif-ns', 'historical.ppFilm.cif-ns', 'historical.ppInjectionMoulding.cif-ns', 'historical.ppIcp.cif-ns', 'historical.ppRandomCopolymer.cif-ns']],
    // A word that tells the members apart names one.
    ['edc sea', ['feedstock.edc.sea']],
    ['hdpe film', ['city.mumbai.hdpeFilm']],
  ])('the family question %j lists %j', (text, ids) => {
    const request = readBotMessage(text, TODAY);
    expect(request.kind === 'price' && request.instruments.map((i) => i.id)).toEqual(ids);
    expect(request.kind === 'price' && request.family).toBe(ids.length > 1);
  });

  // "pp forecast": the desk's calls on the price named, not its price (src/lib/delivery/forecastReply.ts picks the series).
  it.each([
    ['pp forecast', 'historical.ppRaffia.mumbai'],
    ['PP ka anuman', 'historical.ppRaffia.mumbai'],
    ['पीपी अनुमान', 'historical.ppRaffia.mumbai'],
    ['pp cif outlook', 'historical.ppRaffia.cif-ns'],
    ['hdpe forecast', 'historical.hdpeFilm.mumbai'],
    ['naphtha forecast', 'feedstock.naphtha.japan'],
    ['usd inr forecast', null],
  ] as const)('the forecast question %j is on %s', (text, seriesId) => {
    const request = readBotMessage(text, TODAY);
    expect(request.kind).toBe('forecast');
    expect(request.kind === 'forecast' && forecastSeriesOf(request.instruments)).toBe(seriesId);
  });

  it('"forecast" alone is the help; a forecast of nothing known gets suggestions', () => {
    expect(readBotMessage('forecast', TODAY).kind).toBe('help');
    expect(readBotMessage('zzqx forecast', TODAY).kind).toBe('unknown');
  });

  it.each([
    ['pp raffia 23 nov', { kind: 'on', date: '2026-11-23' }],
    ['pp raffia 23/11', { kind: 'on', date: '2026-11-23' }],
    ['pp raffia kal ka bhav', { kind: 'on', date: '2026-11-23' }],
    ['पीपी रैफिया कल का भाव', { kind: 'on', date: '2026-11-23' }],
    ['pp raffia 25 dec', { kind: 'on', date: '2025-12-25' }],
    ['pp raffia last week', { kind: 'since', date: '2026-11-17', span: 'week' }],
    ['pp raffia pichle mahine', { kind: 'since', date: '2026-10-25', span: 'month' }],
    ['aaj pp raffia ka bhav', { kind: 'latest' }],
  ])('%j asks for %j', (text, when) => {
    const request = readBotMessage(text, TODAY);
    expect(request.kind === 'price' && request.when).toEqual(when);
  });

  it('a price word without a product is the subscriber\'s own daily prices; a producer is noticed', () => {
    expect(readBotMessage('kal ka bhav', TODAY)).toEqual({ kind: 'digest', when: { kind: 'on', date: '2026-11-23' } });
    expect(readBotMessage('आज का भाव', TODAY)).toEqual({ kind: 'digest', when: { kind: 'latest' } });
    const producer = readBotMessage('reliance pp raffia', TODAY);
    expect(producer.kind === 'producer' && [producer.producer.id, producer.instruments.map((i) => i.id)]).toEqual(['reliance', ['city.mumbai.ppRaffia']]);
    expect(readBotMessage('indian oil ka rate', TODAY)).toMatchObject({ kind: 'producer', producer: { id: 'iocl' }, instruments: [] });
  });

  it.each([
    ['help', 'help'], ['Hi', 'help'], ['', 'unknown'], ['stop', 'stop'], ['STOP', 'stop'], [' Stop ', 'stop'], ['unsubscribe', 'stop'],
    ['start', 'start'], ['START', 'start'], ['stop sending pp prices', 'unknown'], ['gold price', 'unknown'], ['x'.repeat(201), 'unknown'],
    ['🙂🙂', 'help'], ['<script>alert(1)</script>', 'unknown'], ['\u0000\u0001', 'help'],
  ])('%j is %s', (text, kind) => expect(readBotMessage(text, TODAY).kind).toBe(kind));

  // A wrong price is worse than none: these name no price the catalog has, or no product.
  it.each([
    ['ldpe film', 'ldpe'],
    ['ldpe injection', 'ldpe'],
    ['hdpe lamination', 'hdpe'],
    ['hdpe lamination mumbai', 'hdpe'],
    ['lpde', null],
    ['lldpe raffia', 'lldpe'],
    ['pp lamination', 'pp'],
    ['mumbai', null],
    ['china', null],
    ['sea', null],
    ['delhi rate', null],
    ['film', null],
    ['raffia', null],
    ['ex works', null],
    ['abs', null],
    ['pet bottle', null],
    ['naphtha saudi', 'naphtha'],
    ['ethylene dichlorid', 'ethylene'],
    ['pp raffia tokyo', 'pp'],
  ])('%j is unknown (suggestions name %s)', (text, product) => {
    const request = readBotMessage(text, TODAY);
    expect(request.kind).toBe('unknown');
    const suggestions = request.kind === 'unknown' ? request.suggestions : [];
    if (product) {
      expect(suggestions.length, text).toBeGreaterThan(0);
      expect(suggestions[0]!.productWords, text).toContain(product);
    }
  });

  it('a place alone is answered with prices there to choose from', () => {
    const mumbai = readBotMessage('mumbai', TODAY);
    expect(mumbai.kind === 'unknown' && mumbai.suggestions.map((i) => i.id)).toEqual(['city.mumbai.ppRaffia', 'city.mumbai.ppFilm', 'city.mumbai.ppIcp']);
    const sea = readBotMessage('sea', TODAY);
    expect(sea.kind === 'unknown' && sea.suggestions.every((i) => i.words.includes('sea'))).toBe(true);
  });

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
  it('writes every price as the screens do (src/lib/numbers.ts): its decimals, its grouping, the one spelling of its unit', () => {
    for (const instrument of instruments) {
      const value = 123456.789;
      const en = priceText(instrument.basis, value, 'en');
      // The rupee rate says "₹84.3215" alone: the line's name (USD/INR) says per what.
      expect(en, instrument.id).toBe(instrument.basis.unit === '₹/US$' ? `₹${formatPrice(value, instrument.basis)}` : priceWithUnit(value, instrument.basis));
      expect(priceText(instrument.basis, value, 'hi').startsWith(en.replace(/\/(kg|t|bbl)$/, '')), instrument.id).toBe(true);
      expect(en, 'no bare $').not.toMatch(/(^|[^S])\$/);
    }
  });

  it('a price line has the name, the price with its unit, the change and the day, in English and Hindi', () => {
    const up = { instrument, latest: { date: '2026-11-20', value: 104.5 }, previous: { date: '2026-11-13', value: 104 } };
    expect(priceLine(up)).toBe('PP Raffia Mumbai: ₹104.50/kg ▲0.50 (0.48%) · 20 Nov');
    expect(priceLine(up, 'hi')).toBe('PP रैफ़िया मुंबई: ₹104.50/किलो ▲0.50 (0.48%) · 20 नवंबर');
    expect(priceLine({ ...up, latest: { date: '2026-11-20', value: 104 }, previous: { date: '2026-11-13', value: 104.5 } })).toBe('PP Raffia Mumbai: ₹104.00/kg ▼0.50 (0.48%) · 20 Nov');
    expect(priceLine({ ...up, previous: { date: '2026-11-13', value: 104.5 } })).toBe('PP Raffia Mumbai: ₹104.50/kg ▬ steady · 20 Nov');
    // Indian digit grouping; a day of another year says its year.
    expect(priceLine({ instrument, latest: { date: '2025-11-20', value: 123456.5 }, previous: null }, 'en', '2026-01-02')).toBe('PP Raffia Mumbai: ₹1,23,456.50/kg · 20 Nov 2025');
    expect(priceLine({ instrument: findInstrument('feedstock.naphtha.japan')!, latest: { date: '2026-11-20', value: 612 }, previous: { date: '2026-11-19', value: 614.5 } }, 'hi')).toBe('नेफ़्था जापान: US$612.00/टन ▼2.50 (0.41%) · 20 नवंबर');
    // Each price in its quoting's decimals and the one spelling of its unit, as on the screens: the
    // FBIL rate to four places, a polymer's CIF in whole dollars, a feedstock to the cent.
    expect(priceLine({ instrument: findInstrument('fx.usdinr')!, latest: { date: '2026-11-20', value: 84.3215 }, previous: null })).toBe('USD/INR: ₹84.3215 · 20 Nov');
    expect(priceLine({ instrument: findInstrument('historical.ppRaffia.cif-ns')!, latest: { date: '2026-11-20', value: 1010 }, previous: { date: '2026-11-13', value: 1025 } })).toBe('PP Raffia CIF NS: US$1,010/t ▼15 (1.46%) · 20 Nov');
    // No float noise in a change (104.3 − 104.1 is 0.19999999999999574 in binary).
    expect(priceLine({ ...up, latest: { date: '2026-11-20', value: 104.3 }, previous: { date: '2026-11-13', value: 104.1 } })).toBe('PP Raffia Mumbai: ₹104.30/kg ▲0.20 (0.19%) · 20 Nov');
    expect(alertHeadline(instrument, { kind: 'move', value: 2.5 }, 'hi')).toBe('भाव अलर्ट: PP रैफ़िया मुंबई एक दिन में 2.5% या ज़्यादा बदला');
    expect(priceLine({ instrument: findInstrument('feedstock.crude.brent')!, latest: { date: '2026-11-20', value: 73.4 }, previous: null })).toBe('Brent crude: US$73.40/bbl · 20 Nov');
    expect(alertHeadline(instrument, { kind: 'above', value: 110 })).toBe('Price alert: PP Raffia Mumbai reaches or passes ₹110.00/kg');
    expect(alertHeadline(instrument, { kind: 'below', value: 100 }, 'hi')).toBe('भाव अलर्ट: PP रैफ़िया मुंबई ₹100.00/किलो पर या उससे नीचे आया');
    expect(alertHeadline(instrument, { kind: 'move', value: 2 })).toBe('Price alert: PP Raffia Mumbai moves 2% or more in a day');
  });

  it('template parameters are one line; a template renders its body', () => {
    expect(templateParam('a\nb\tc      d')).toBe('a b c   d');
    expect(renderTemplate(verificationCodeTemplate('en'), ['123456'])).toBe('123456 is your PolyIndex verification code. It expires in 10 minutes.');
    expect(renderTemplate(verificationCodeTemplate('hi'), ['123456'])).toBe('123456 आपका PolyIndex सत्यापन कोड है। यह 10 मिनट में समाप्त हो जाएगा।');
  });

  it('the Cloud API bodies: free text and templates in their language (auth templates repeat the code on their button)', () => {
    expect(graphRequestOf({ kind: 'text', to: '919820012345', body: 'hello' })).toEqual({
      messaging_product: 'whatsapp', recipient_type: 'individual', to: '919820012345', type: 'text', text: { preview_url: false, body: 'hello' },
    });
    expect(graphRequestOf({ kind: 'template', to: '919820012345', template: priceAlertTemplate('hi'), params: ['a', 'b\nc', 'http://x/alerts'] })).toEqual({
      messaging_product: 'whatsapp', recipient_type: 'individual', to: '919820012345', type: 'template',
      template: { name: 'polyindex_price_alert', language: { code: 'hi' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b c' }, { type: 'text', text: 'http://x/alerts' }] }] },
    });
    const code = graphRequestOf({ kind: 'template', to: '1', template: verificationCodeTemplate('en'), params: ['654321'] }) as { template: { components: unknown[] } };
    expect(code.template.components).toContainEqual({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '654321' }] });
    expect(textOf({ kind: 'template', to: '1', template: verificationCodeTemplate('en'), params: ['654321'] })).toMatch(/^654321 is your/);
    expect(textOf({ kind: 'text', to: '1', body: 'x'.repeat(5000) })).toHaveLength(4096);
  });

  it("refuses what Meta refuses, with Meta's code: unregistered templates, wrong counts, line breaks, long bodies", () => {
    const template = (name: string, code: string, texts: readonly string[]) => ({ type: 'template', template: { name, language: { code }, components: [{ type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) }] } });
    const daily = dailyUpdateTemplate('en', 2);
    expect(graphRefusal(template(daily.name, 'en', ['Tue 24 Nov 2026', 'line one', 'line two', 'https://x/']))).toBeNull();
    expect(graphRefusal(template('polyindex_daily_update', 'en', ['a', 'b', 'c']))?.code).toBe(132001);
    expect(graphRefusal(template(daily.name, 'fr', ['a', 'b', 'c', 'd']))?.code).toBe(132001);
    expect(graphRefusal(template(daily.name, 'en', ['a', 'b', 'c']))?.code).toBe(132000);
    expect(graphRefusal(template(daily.name, 'en', ['a', 'line\none', 'c', 'd']))?.code).toBe(132018);
    expect(graphRefusal(template(daily.name, 'en', ['a', 'tab\there', 'c', 'd']))?.code).toBe(132018);
    expect(graphRefusal(template(daily.name, 'en', ['a', 'five     spaces', 'c', 'd']))?.code).toBe(132018);
    expect(graphRefusal(template(daily.name, 'en', ['a', 'four    spaces', 'c', 'd']))).toBeNull();
    expect(graphRefusal(template(daily.name, 'en', ['a', '', 'c', 'd']))?.code).toBe(132018);
    expect(graphRefusal(template(daily.name, 'en', ['a', 'x'.repeat(1000), 'c', 'd']))?.code).toBe(132005);
    expect(graphRefusal({ type: 'text', text: { body: 'x'.repeat(4097) } })?.code).toBe(100);
    expect(graphRefusal({ type: 'text', text: { body: 'x'.repeat(4096) } })).toBeNull();
  });

  it('free text only inside the 24-hour service window', () => {
    expect(inServiceWindow(null, NOW)).toBe(false);
    expect(inServiceWindow(new Date(NOW.getTime() - 23 * 3_600_000).toISOString(), NOW)).toBe(true);
    expect(inServiceWindow(new Date(NOW.getTime() - 24 * 3_600_000).toISOString(), NOW)).toBe(false);
  });
});

describe('the daily hour is India time, with a delivery window', () => {
  it.each([
    ['2026-11-24T03:29:00Z', 8, '2026-11-24'],
    ['2026-11-24T03:30:00Z', 9, '2026-11-24'],
    ['2026-11-24T18:29:00Z', 23, '2026-11-24'],
    ['2026-11-24T18:30:00Z', 0, '2026-11-25'],
  ])('%s is hour %i of %s in India', (instant, hour, day) => {
    expect(istHourOf(new Date(instant))).toBe(hour);
    expect(deliveryDayOf(new Date(instant))).toBe(day);
  });

  // An update for 09:00 goes from 09:00 to 12:00 IST (03:30–06:30 UTC); after that the day is skipped.
  it.each([
    ['2026-11-24T03:29:59Z', 9, 3, { state: 'waiting', day: '2026-11-24' }],
    ['2026-11-24T03:30:00Z', 9, 3, { state: 'due', day: '2026-11-24' }],
    ['2026-11-24T06:29:59Z', 9, 3, { state: 'due', day: '2026-11-24' }],
    ['2026-11-24T06:30:00Z', 9, 3, { state: 'missed', day: '2026-11-24' }],
    ['2026-11-24T17:30:00Z', 9, 3, { state: 'missed', day: '2026-11-24' }],
    ['2026-11-24T02:30:00Z', 9, 3, { state: 'waiting', day: '2026-11-24' }],
    ['2026-11-24T04:30:00Z', 9, 1, { state: 'missed', day: '2026-11-24' }],
    ['2026-11-24T08:29:00Z', 9, 5, { state: 'due', day: '2026-11-24' }],
    // A window past midnight: 23:00 + 3 h is 02:00 the next day, still the day before's update.
    ['2026-11-24T19:30:00Z', 23, 3, { state: 'due', day: '2026-11-24' }],
    ['2026-11-24T20:29:00Z', 23, 3, { state: 'due', day: '2026-11-24' }],
    ['2026-11-24T20:30:00Z', 23, 3, { state: 'waiting', day: '2026-11-25' }],
    ['2026-11-24T18:30:00Z', 0, 3, { state: 'due', day: '2026-11-25' }],
  ] as const)('at %s an update for %i:00 with a %i-hour window is %j', (instant, hour, window, slot) => {
    expect(dailySlotOf(hour, new Date(instant), window)).toMatchObject(slot);
  });

  it('a window is 1 to 12 whole hours (3 unless configured); the skipped update is told plainly', () => {
    expect(deliveryWindowHours(undefined)).toBe(3);
    expect(deliveryWindowHours(6)).toBe(6);
    for (const bad of [0, 13, 2.5, -1]) expect(() => deliveryWindowHours(bad), String(bad)).toThrow(/DELIVERY_WINDOW_HOURS/);
    expect(missedNotice({ day: '2026-11-24', ranAt: new Date('2026-11-24T17:30:00Z'), hour: 9, windowHours: 3, channels: ['email', 'whatsapp'] })).toBe(
      'Your update of Tue 24 Nov (e-mail and WhatsApp) was skipped: the delivery run came at 23:00 IST, after its window (09:00–12:00 IST). ' +
        'Updates go only inside their window; the next one comes on Wed 25 Nov from 09:00 IST.',
    );
  });
});

describe('signed unsubscribe links', () => {
  const secret = 'a'.repeat(64);
  it('round-trip for the daily update and for one alert; headers name the one-click endpoint', () => {
    const daily = unsubscribeToken(secret, { uid: 'u1', what: 'daily' }, NOW);
    expect(readUnsubscribeToken(secret, daily, NOW)).toEqual({ target: { uid: 'u1', what: 'daily' }, expired: false });
    const alert = unsubscribeToken(secret, { uid: 'u1', what: 'alert', alertId: 'al_x' }, NOW);
    expect(readUnsubscribeToken(secret, alert, NOW)).toEqual({ target: { uid: 'u1', what: 'alert', alertId: 'al_x' }, expired: false });
    expect(listUnsubscribeHeaders('http://127.0.0.1:4321', daily)).toEqual({
      'List-Unsubscribe': `<http://127.0.0.1:4321/api/unsubscribe?token=${encodeURIComponent(daily)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it(`expires a link ${UNSUBSCRIBE_LINK_DAYS} days after its mail, and a link made before links carried their time`, () => {
    const daily = unsubscribeToken(secret, { uid: 'u1', what: 'daily' }, NOW);
    const at = (ms: number) => new Date(NOW.getTime() + ms);
    const day = 86_400_000;
    expect(readUnsubscribeToken(secret, daily, at(UNSUBSCRIBE_LINK_DAYS * day - 1_000))).toMatchObject({ expired: false });
    expect(readUnsubscribeToken(secret, daily, at(UNSUBSCRIBE_LINK_DAYS * day))).toEqual({ target: { uid: 'u1', what: 'daily' }, expired: true });
    // A token of the old form (no time), signed with the same secret: genuine, but expired.
    const old = Buffer.from(JSON.stringify(['u1', 'daily'])).toString('base64url');
    const oldToken = `${old}.${createHmac('sha256', secret).update(`unsubscribe:${old}`).digest('base64url')}`;
    expect(readUnsubscribeToken(secret, oldToken, NOW)).toEqual({ target: { uid: 'u1', what: 'daily' }, expired: true });
  });

  it('refuses tampered, foreign and malformed tokens', () => {
    const token = unsubscribeToken(secret, { uid: 'u1', what: 'daily' }, NOW);
    const [payload, mac] = token.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify(['u2', 'daily', 1_800_000_000])).toString('base64url');
    for (const bad of [`${other}.${mac}`, unsubscribeToken('b'.repeat(64), { uid: 'u1', what: 'daily' }, NOW), `${payload}.`, payload, '', '.', 'x'.repeat(700), `${payload}.${mac}x`, `${payload}!.${mac}`]) {
      expect(readUnsubscribeToken(secret, bad, NOW), bad).toBeNull();
    }
    const sign = (parts: unknown[]) => {
      const body = Buffer.from(JSON.stringify(parts)).toString('base64url');
      return `${body}.${createHmac('sha256', secret).update(`unsubscribe:${body}`).digest('base64url')}`;
    };
    for (const parts of [['u1', 'everything', 1], ['u1', 'daily', -5], ['u1', 'daily', 1.5], ['u1', 'daily', '1'], [1, 'daily']]) {
      expect(readUnsubscribeToken(secret, sign(parts), NOW), JSON.stringify(parts)).toBeNull();
    }
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
    expect(ok(SettingsBody, { series: [], email: false, whatsapp: false, hour: 0, language: 'hi' })).toBe(true);
    for (const language of ['fr', 'Hindi', '', 1, null]) expect(ok(SettingsBody, { series: [], email: false, whatsapp: false, hour: 0, language }), String(language)).toBe(false);
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

describe('delivery mail', () => {
  it("the daily update's subject carries the day, in the reader's language", () => {
    const prices = [{ instrument: findInstrument('fx.usdinr')!, latest: { date: '2026-11-03', value: 84 }, previous: null, screen: null }];
    const mail = (language: 'en' | 'hi') => dailyUpdateMail({ siteUrl: 'http://127.0.0.1:4321', linkSecret: 'x'.repeat(64), now: () => NOW }, 'a@example.test', 'u1', mailDailyUpdate({ day: '2026-11-04', language, prices, settingsLink: 'http://127.0.0.1:4321/alerts' }));
    expect(mail('en').subject).toBe('PolyIndex daily prices · Wed 4 Nov 2026');
    expect(mail('hi').subject).toBe('PolyIndex दैनिक भाव · बुधवार, 4 नवंबर 2026');
    expect(mail('hi').html).toContain('<html lang="hi">');
  });
  it('the welcome mail names nobody (the address is unconfirmed, a display name is anyone\'s words)', () => {
    const mail = welcomeMail('http://127.0.0.1:4321', 'a@example.test');
    expect(mail.subject).toBe('Welcome to PolyIndex');
    expect(mail.html).toContain('Welcome to PolyIndex');
  });
});

describe('verification codes (the rules every store adapter applies)', () => {
  const NUMBER = '919820012345';
  const limits = [{ windowMs: 600_000, max: 3 }, { windowMs: 86_400_000, max: 5 }];
  const contact = (extra: Partial<WhatsAppContact>): WhatsAppContact => ({ number: NUMBER, uid: null, optedIn: false, optInAt: null, optOutAt: null, lastInboundAt: null, codeSentAt: [], updatedAt: NOW.toISOString(), ...extra });
  const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

  it('never to a number that sent STOP (until START); a number is limited per window for each account', () => {
    const by = (uid: string, ...at: string[]) => ({ codeSentAt: at, codeSentBy: at.map(() => uid) });
    expect(codeStartOf(null, NOW, limits, 'u1')).toEqual({ ok: true });
    expect(codeStartOf(contact({ optOutAt: ago(1000) }), NOW, limits, 'u1')).toEqual({ ok: false, reason: 'stopped' });
    expect(codeStartOf(contact({ optOutAt: ago(5000), optedIn: true, optInAt: ago(1000) }), NOW, limits, 'u1')).toEqual({ ok: true });
    expect(codeStartOf(contact(by('u1', ago(300_000), ago(200_000))), NOW, limits, 'u1')).toEqual({ ok: true });
    expect(codeStartOf(contact(by('u1', ago(300_000), ago(200_000), ago(100_000))), NOW, limits, 'u1')).toEqual({ ok: false, reason: 'limited', retryAfterMs: 300_000 });
    expect(codeStartOf(contact(by('u1', ago(20 * 3_600_000), ago(10 * 3_600_000), ago(3_600_000), ago(1_800_000), ago(700_000))), NOW, limits, 'u1')).toEqual({ ok: false, reason: 'limited', retryAfterMs: 4 * 3_600_000 });
    expect(codeStartOf(contact(by('u1', ago(25 * 3_600_000), ago(10 * 3_600_000), ago(3_600_000), ago(1_800_000), ago(700_000))), NOW, limits, 'u1')).toEqual({ ok: true });
  });

  it("a stranger's requests use up only the stranger's own codes for a number, never its owner's (the probe's note)", () => {
    const stranger = { codeSentAt: [ago(5 * 3_600_000), ago(4 * 3_600_000), ago(3 * 3_600_000), ago(2 * 3_600_000), ago(60_000)], codeSentBy: Array<string>(5).fill('u-stranger') };
    expect(codeStartOf(contact(stranger), NOW, limits, 'u-stranger')).toMatchObject({ ok: false, reason: 'limited' });
    expect(codeStartOf(contact(stranger), NOW, limits, 'u-owner')).toEqual({ ok: true });
    // Sends recorded before accounts were (no codeSentBy) count against nobody.
    expect(codeStartOf(contact({ codeSentAt: stranger.codeSentAt }), NOW, limits, 'u-owner')).toEqual({ ok: true });
  });

  it('a try is counted before the code is compared; spent, expired or missing codes are none', () => {
    const pending = { number: NUMBER, codeHash: whatsappCodeHash('u1', NUMBER, '123456'), expiresAt: new Date(NOW.getTime() + 60_000).toISOString(), attempts: 0 };
    const settings: DeliverySettings = { uid: 'u1', series: [], email: false, whatsapp: false, hour: 9, whatsappNumber: null, whatsappVerifiedAt: null, pending, updatedAt: NOW.toISOString() };
    expect(codeTryOf(settings, 'u1', '000000', NOW, 5)).toMatchObject({ result: { outcome: 'wrong' }, counted: { pending: { attempts: 1 } } });
    expect(codeTryOf(settings, 'u1', '123456', NOW, 5)).toMatchObject({ result: { outcome: 'verified', number: NUMBER }, counted: { pending: { attempts: 1 } } });
    expect(codeTryOf({ ...settings, pending: { ...pending, attempts: 5 } }, 'u1', '123456', NOW, 5)).toEqual({ result: { outcome: 'none' }, counted: null });
    expect(codeTryOf({ ...settings, pending: { ...pending, expiresAt: NOW.toISOString() } }, 'u1', '123456', NOW, 5)).toEqual({ result: { outcome: 'none' }, counted: null });
    expect(codeTryOf({ ...settings, pending: null }, 'u1', '123456', NOW, 5).result).toEqual({ outcome: 'none' });
    // The hash binds the code to the user: another user's right code is wrong here.
    expect(codeTryOf(settings, 'u2', '123456', NOW, 5).result).toEqual({ outcome: 'wrong' });
  });
});

describe('modes', () => {
  const real = { authEmulator: false, sandboxPayments: false, whatsappSandbox: false };
  it('a public address needs DELIVERY_LINK_SECRET (one secret for every instance); loopback does not', () => {
    expect(unsafeModeReasons({ host: '0.0.0.0', ...real })).toEqual([expect.stringContaining('DELIVERY_LINK_SECRET')]);
    expect(unsafeModeReasons({ host: '0.0.0.0', ...real, deliveryLinkSecret: false })).toEqual([expect.stringContaining('DELIVERY_LINK_SECRET')]);
    expect(unsafeModeReasons({ host: '0.0.0.0', ...real, deliveryLinkSecret: true })).toEqual([]);
    expect(unsafeModeReasons({ host: '127.0.0.1', ...real, deliveryLinkSecret: false })).toEqual([]);
  });
  it('the WhatsApp sandbox: without a token and a phone number id', () => {
    expect(whatsappSandboxOf({})).toBe(true);
    expect(whatsappSandboxOf({ WHATSAPP_TOKEN: 'EAAG', WHATSAPP_PHONE_NUMBER_ID: ' ' })).toBe(true);
    expect(whatsappSandboxOf({ WHATSAPP_TOKEN: 'EAAG', WHATSAPP_PHONE_NUMBER_ID: '1234' })).toBe(false);
  });
  it.each([
    [undefined, undefined, 'http://localhost:4321'],
    ['127.0.0.1', '4399', 'http://127.0.0.1:4399'],
    ['::1', '8080', 'http://[::1]:8080'],
    ['[::1]', '8080', 'http://[::1]:8080'],
    ['localhost', '', 'http://localhost:4321'],
    ['evil.example', '80', 'http://127.0.0.1:80'],
    ['0.0.0.0', 'x', 'http://127.0.0.1:4321'],
  ])("the server's own loopback origin for HOST=%s PORT=%s is %s", (host, port, origin) => expect(loopbackOriginOf(host, port)).toBe(origin));
});

describe('job endpoints', () => {
  // Every route file under src/pages/api/jobs: its path is one of JOB_PATHS (public in the
  // policy) and every handler it exports is made by the one bearer-checking wrapper.
  const routes = import.meta.glob<Record<string, unknown>>('../../src/pages/api/jobs/**/*.ts', { eager: true });
  it('exactly the JOB_PATHS, each made by jobEndpoint', () => {
    const paths = Object.keys(routes).map((file) => file.replace('../../src/pages', '').replace(/\.ts$/, ''));
    expect(paths.toSorted()).toEqual(Object.values(JOB_PATHS).toSorted());
    for (const [file, module] of Object.entries(routes)) {
      const handlers = Object.entries(module).filter(([name]) => /^[A-Z]+$/.test(name));
      expect(handlers.length, file).toBeGreaterThan(0);
      for (const [name, handler] of handlers) expect(isJobEndpoint(handler), `${file} ${name}`).toBe(true);
    }
  });
});

const findInstrumentAt = (i: number): string => instruments[i]!.id;
