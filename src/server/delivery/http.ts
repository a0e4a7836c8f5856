/**
 * The delivery endpoints of `/alerts` (JSON; signed-in by the access policy, what they allow by
 * the plan): settings, alerts, WhatsApp number verification, and the one-click unsubscribe.
 * Every body is zod-validated (400 naming the field), plans without the right get 403 with
 * a clear message, browser writes must come from our own pages. Writes change named fields in
 * one store transaction each (no write loses another's), and a code's tries are counted in the
 * same transaction that compares it.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import { ALERT_KINDS, INITIAL_ALERT_STATE, moveProblem, stepAlert, type AlertKind } from '../../lib/delivery/alerts.ts';
import { findInstrument, instruments, type Instrument } from '../../lib/delivery/instruments.ts';
import { UNSUBSCRIBE_PAGE_PATH } from '../../lib/delivery/paths.ts';
import { displayNumber, whatsappNumberOf } from '../../lib/delivery/phone.ts';
import { everyDailyPricePlan } from '../../lib/delivery/planWords.ts';
import { dailyChoicesOf, dailySeriesOf, deliveryRightsOf, mayChooseDaily, RIGHT_MESSAGES, type DeliveryRights } from '../../lib/delivery/rights.ts';
import { formatNumber, formatPercentThreshold, priceWithUnit } from '../../lib/numbers.ts';
import { findPlan } from '../../lib/plans.ts';
import { addDays } from '../../lib/dates.ts';
import { DELIVERY_LANGUAGES, languageOf, type DeliveryLanguage } from '../../lib/delivery/language.ts';
import { DEFAULT_DELIVERY_HOUR, deliveryDayOf, missedNotice } from '../../lib/delivery/schedule.ts';
import type { AlertView, DeliveryView, InstrumentChoice, MissedUpdate } from '../../lib/delivery/view.ts';
import { readRevisionTarget, revisionTargetLabel } from '../../lib/delivery/revisionAlerts.ts';
import { verificationCodeTemplate } from '../../lib/delivery/whatsappTemplates.ts';
import { valueProblem } from '../../lib/priceRanges.ts';
import type { Session } from '../auth/session.ts';
import { createRateLimiter } from '../mail/rateLimit.ts';
import { json, jsonError, readSignedInPost, readText, sameOriginError, unauthenticated } from '../http/responses.ts';
import { CHANNELS, whatsappCodeHash, type AlertRecord, type CodeLimit, type DeliveryLogRecord, type DeliverySettings } from '../store/delivery.ts';
import { deliveryDeps } from './index.ts';
import { readUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, type UnsubscribeLink, type UnsubscribeTarget } from './links.ts';
import { freshUnsubscribeMail } from './mailMessages.ts';
import { quoteOf } from './quotes.ts';

export const MAX_DAILY_SERIES = 30;
export const MAX_ALERTS = 50;
const CODE_TTL_MS = 10 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;
/**
 * Verification codes are paid messages to a number someone typed, so they are limited three ways:
 * - per account and number (kept in the Store, so it holds across instances): 3 in 10 minutes,
 *   5 a day. Per account, not per number alone: otherwise anyone with a plan could use up a
 *   number's codes and lock its owner out of verifying it (docs/delivery.md);
 * - per user (in memory, per instance): 3 in 10 minutes, 10 a day;
 * - per client address (in memory, per instance; generous, many traders share a carrier's address): 20 in 10 minutes, 100 a day.
 */
export const NUMBER_CODE_LIMITS: readonly CodeLimit[] = [
  { windowMs: 10 * 60_000, max: 3 },
  { windowMs: 86_400_000, max: 5 },
];
const codeLimiter = createRateLimiter([
  { windowMs: 10 * 60_000, max: 3 },
  { windowMs: 86_400_000, max: 10 },
]);
const addressCodeLimiter = createRateLimiter([
  { windowMs: 10 * 60_000, max: 20 },
  { windowMs: 86_400_000, max: 100 },
]);

export const instrumentId = z
  .string({ error: 'Name a price by its id, e.g. city.mumbai.ppRaffia.' })
  .max(80, 'That is not a price we publish.')
  .refine((id) => findInstrument(id) !== undefined, 'That is not a price we publish.');

export const SettingsBody = z.object({
  series: z
    .array(instrumentId, { error: 'series must be a list of price ids.' })
    .max(MAX_DAILY_SERIES, `Choose at most ${MAX_DAILY_SERIES} prices.`)
    .refine((ids) => new Set(ids).size === ids.length, 'A price is listed twice.'),
  email: z.boolean({ error: 'email must be true or false.' }),
  whatsapp: z.boolean({ error: 'whatsapp must be true or false.' }),
  hour: z.number({ error: 'hour must be a whole hour, 0 to 23 (IST).' }).int('hour must be a whole hour, 0 to 23 (IST).').min(0, 'hour must be 0 to 23 (IST).').max(23, 'hour must be 0 to 23 (IST).'),
  /** The language of the daily update and alerts; left out, it stays as saved. */
  language: z.enum(DELIVERY_LANGUAGES as [DeliveryLanguage, ...DeliveryLanguage[]], { error: 'language must be en (English) or hi (Hindi).' }).optional(),
  /** The weekly forecast digest (Mondays at `hour`, by the channels on); left out, it stays as saved. */
  forecastDigest: z.boolean({ error: 'forecastDigest must be true or false.' }).optional(),
});

export const alertChannels = z
  .array(z.enum(CHANNELS as [string, ...string[]], { error: 'A channel is email or whatsapp.' }), { error: 'channels must be a list: email, whatsapp.' })
  .min(1, 'Choose at least one channel.')
  .max(2, 'Choose email, whatsapp or both.')
  .refine((list) => new Set(list).size === list.length, 'A channel is listed twice.');

export const AlertBody = z.object({
  series: instrumentId,
  kind: z.enum(ALERT_KINDS as [string, ...string[]], { error: 'kind must be above, below or move.' }),
  value: z.number({ error: 'value must be a number.' }).refine(Number.isFinite, 'value must be a number.'),
  channels: alertChannels,
});

export const NumberBody = z.object({
  number: z.string({ error: 'Give your WhatsApp number.' }).max(30, 'That is not a phone number.'),
  consent: z.literal(true, { error: 'Agree to receive PolyIndex messages on WhatsApp first.' }),
});
export const CodeBody = z.object({ code: z.string({ error: 'Give the 6-digit code.' }).regex(/^\d{6}$/, 'The code is 6 digits.') });

export const rightsOf = (session: Session): DeliveryRights => deliveryRightsOf({ uid: session.uid, record: session.record }, new Date());

export const forbidden = (right: keyof typeof RIGHT_MESSAGES): Response => jsonError(403, 'forbidden', RIGHT_MESSAGES[right]);

export function emptySettings(uid: string, rights: DeliveryRights, now: Date): DeliverySettings {
  return { uid, series: [...rights.dailyDefaults], email: false, whatsapp: false, hour: DEFAULT_DELIVERY_HOUR, whatsappNumber: null, whatsappVerifiedAt: null, pending: null, updatedAt: now.toISOString() };
}

/** What /alerts shows: rights, settings (defaults before the first save; the prices the plan carries), alerts, the number. */
export async function deliveryView(session: Session): Promise<DeliveryView> {
  const deps = await deliveryDeps();
  const rights = rightsOf(session);
  const now = deps.now();
  const settings = (await deps.store.getDeliverySettings(session.uid)) ?? emptySettings(session.uid, rights, now);
  const contact = settings.whatsappNumber ? await deps.store.getWhatsAppContact(settings.whatsappNumber) : null;
  const alerts = await deps.store.listAlertsByUid(session.uid);
  return {
    rights: { dailyUpdate: rights.dailyUpdate, alerts: rights.alerts, priceBot: rights.priceBot },
    settings: { series: rights.dailyUpdate ? dailySeriesOf(rights, settings.series) : [], email: settings.email, whatsapp: settings.whatsapp, hour: settings.hour, language: languageOf(settings.language), forecastDigest: settings.forecastDigest === true },
    windowHours: deps.windowHours,
    missed: rights.dailyUpdate ? missedUpdate(await deps.store.listDeliveries(session.uid), settings.hour, deps.windowHours, now) : null,
    whatsapp: {
      number: settings.whatsappNumber ? displayNumber(settings.whatsappNumber) : null,
      verifiedAt: settings.whatsappVerifiedAt,
      optedIn: contact?.optedIn ?? false,
      pending: settings.pending && Date.parse(settings.pending.expiresAt) > now.getTime() ? displayNumber(settings.pending.number) : null,
    },
    alerts: alerts.map(alertView),
  };
}

/**
 * The latest daily update a run skipped because its window had closed (today's or yesterday's),
 * from the sent-log: a daily record is `dropped` only then.
 */
function missedUpdate(log: readonly DeliveryLogRecord[], hour: number, windowHours: number, now: Date): MissedUpdate | null {
  const since = addDays(deliveryDayOf(now), -1);
  const skipped = log.filter((r) => r.kind === 'daily' && r.status === 'dropped' && r.ref >= since);
  const day = skipped.reduce((latest, r) => (r.ref > latest ? r.ref : latest), '');
  if (!day) return null;
  const records = skipped.filter((r) => r.ref === day);
  const ranAt = records.reduce((latest, r) => (r.claimedAt > latest ? r.claimedAt : latest), '');
  const channels = CHANNELS.filter((c) => records.some((r) => r.channel === c));
  return { day, ranAt, channels, message: missedNotice({ day, ranAt: new Date(ranAt), hour, windowHours, channels }) };
}

export const alertView = (a: AlertRecord): AlertView => ({
  id: a.id,
  series: a.instrument,
  label: alertLabel(a),
  kind: a.kind,
  value: a.value,
  valueText: alertValueText(a),
  channels: a.channels,
  createdAt: a.createdAt,
});

/** The alert's threshold as /alerts writes it: "2.5%" for a move, "₹110.00/kg" for a price level (its price's decimals and unit). */
function alertValueText(a: AlertRecord): string {
  if (a.kind === 'move') return formatPercentThreshold(a.value);
  const instrument = a.kind === 'revision' ? undefined : findInstrument(a.instrument);
  return instrument ? priceWithUnit(a.value, instrument.basis) : formatNumber(a.value);
}

/** What an alert watches, as /alerts lists it: the price, or the producer revisions. */
function alertLabel(a: AlertRecord): string {
  const target = a.kind === 'revision' ? readRevisionTarget(a.instrument) : null;
  return target ? revisionTargetLabel(target) : (findInstrument(a.instrument)?.label ?? a.instrument);
}

const choiceOf = (i: Instrument): InstrumentChoice => ({ id: i.id, label: i.label, unit: i.unit, group: i.group });

/**
 * The prices /alerts offers: `choices` for alerts (every price, when the plan has alerts) and the
 * daily update; `dailyChoiceIds` the ones the plan's daily update may carry (null: every one).
 */
export function instrumentChoices(session: Session): { choices: InstrumentChoice[]; dailyChoiceIds: string[] | null } {
  const rights = rightsOf(session);
  if (rights.alerts || rights.dailyChoices === 'all') {
    return { choices: instruments.map(choiceOf), dailyChoiceIds: rights.dailyChoices === 'all' ? null : dailyChoicesOf(rights).map((i) => i.id) };
  }
  return { choices: dailyChoicesOf(rights).map(choiceOf), dailyChoiceIds: null };
}

/** The first chosen price the plan's daily update may not carry: a 400 naming it. */
export function notInPlan(session: Session, rights: DeliveryRights, series: readonly string[]): Response | null {
  const index = series.findIndex((id) => !mayChooseDaily(rights, findInstrument(id)!));
  if (index < 0) return null;
  const plan = findPlan(session.record?.plan)?.name ?? 'your';
  return jsonError(400, 'invalid_input', `${findInstrument(series[index]!)!.label} is not in the ${plan} plan's daily update: choose from the list on /alerts, or every price with ${everyDailyPricePlan()}.`, `series.${index}`);
}

/** The client's address as the adapter gives it (behind the site's proxy, X-Forwarded-For), or null. */
function clientAddressOf(context: { readonly clientAddress?: string }): string | null {
  try {
    return context.clientAddress ?? null;
  } catch {
    // Astro throws where the adapter knows no address.
    return null;
  }
}

const tooManyCodes = (retryAfterSeconds: number): Response =>
  json({ error: { code: 'rate_limited', message: 'Too many codes: try again later.', field: 'number' } }, { status: 429, headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });

export const signedIn = (locals: App.Locals): Session | null => locals.session ?? null;

/** GET /api/alerts/settings */
export const getSettings: EndpointHandler = async ({ locals }) => {
  const session = signedIn(locals);
  if (!session) return unauthenticated();
  return json(await deliveryView(session));
};

/** PUT /api/alerts/settings `{series, email, whatsapp, hour, language?, forecastDigest?}` */
export const putSettings: EndpointHandler = async ({ locals, request }) => {
  const input = await readSignedInPost(request, signedIn(locals), SettingsBody);
  if (!input.ok) return input.response;
  const { session, data } = input;
  const rights = rightsOf(session);
  if (!rights.dailyUpdate) return forbidden('dailyUpdate');
  const refused = notInPlan(session, rights, data.series);
  if (refused) return refused;
  for (const channel of ['email', 'whatsapp'] as const) {
    if (data[channel] && !rights.channels.includes(channel)) return jsonError(400, 'invalid_input', `Your plan's daily update does not go by ${channel === 'email' ? 'e-mail' : 'WhatsApp'}.`, channel);
  }
  const deps = await deliveryDeps();
  const now = deps.now();
  const current = await deps.store.getDeliverySettings(session.uid);
  if (data.whatsapp && !current?.whatsappNumber) return jsonError(400, 'invalid_input', 'Verify a WhatsApp number first.', 'whatsapp');
  if (data.email && !session.record?.email && !session.email) return jsonError(400, 'invalid_input', 'Your account has no e-mail address.', 'email');
  // The fields of this form only: a code being verified meanwhile, or an unsubscribe, is kept.
  const patch = { series: data.series, email: data.email, whatsapp: data.whatsapp, hour: data.hour, ...(data.language ? { language: data.language } : {}), ...(data.forecastDigest === undefined ? {} : { forecastDigest: data.forecastDigest }) };
  await deps.store.patchDeliverySettings(session.uid, patch, now, emptySettings(session.uid, rights, now));
  return json(await deliveryView(session));
};

/**
 * What every new alert is refused for once its own fields are right (400 naming the field): a
 * channel the user cannot receive on (no verified number, no e-mail address), or MAX_ALERTS
 * alerts already (`countField` names the form's first field).
 */
export async function newAlertRefusal(session: Session, channels: readonly string[], countField: string): Promise<Response | null> {
  const deps = await deliveryDeps();
  const settings = await deps.store.getDeliverySettings(session.uid);
  if (channels.includes('whatsapp') && !settings?.whatsappNumber) return jsonError(400, 'invalid_input', 'Verify a WhatsApp number first, or choose e-mail.', 'channels');
  if (channels.includes('email') && !session.record?.email && !session.email) return jsonError(400, 'invalid_input', 'Your account has no e-mail address.', 'channels');
  const existing = await deps.store.listAlertsByUid(session.uid);
  if (existing.length >= MAX_ALERTS) return jsonError(400, 'invalid_input', `You have ${MAX_ALERTS} alerts: delete one first.`, countField);
  return null;
}

/** POST /api/alerts `{series, kind, value, channels}` → 201 */
export const postAlert: EndpointHandler = async ({ locals, request }) => {
  const input = await readSignedInPost(request, signedIn(locals), AlertBody);
  if (!input.ok) return input.response;
  const { session, data } = input;
  if (!rightsOf(session).alerts) return forbidden('alerts');
  const instrument = findInstrument(data.series)!;
  if (data.kind === 'move') {
    const problem = moveProblem(data.value);
    if (problem) return jsonError(400, 'invalid_input', problem, 'value');
  } else {
    const problem = valueProblem(instrument.unit, data.value);
    if (problem) return jsonError(400, 'invalid_input', `For ${instrument.label}, ${problem}.`, 'value');
  }
  const refused = await newAlertRefusal(session, data.channels, 'series');
  if (refused) return refused;
  const deps = await deliveryDeps();
  const now = deps.now();
  // The alert starts where the price is now: it fires on the next crossing, not at once.
  const { latest, previous } = await quoteOf(deps.store, instrument);
  const kind = data.kind as AlertKind;
  const armed = stepAlert(kind, data.value, INITIAL_ALERT_STATE, latest, previous, true).state;
  const alert: AlertRecord = {
    id: `al_${randomUUID().replaceAll('-', '')}`,
    uid: session.uid,
    instrument: instrument.id,
    kind,
    value: data.value,
    channels: data.channels as AlertRecord['channels'],
    ...armed,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await deps.store.createAlert(alert);
  return json({ alert: alertView(alert) }, 201);
};

/** DELETE /api/alerts/{id} */
export const deleteAlert: EndpointHandler = async ({ locals, request, params }) => {
  const session = signedIn(locals);
  if (!session) return unauthenticated();
  const crossOrigin = sameOriginError(request);
  if (crossOrigin) return crossOrigin;
  const id = params['id'] ?? '';
  if (!/^al_[0-9a-f]{32}$/.test(id)) return jsonError(404, 'not_found', 'There is no such alert.', 'id');
  const deps = await deliveryDeps();
  return (await deps.store.deleteAlert(session.uid, id)) ? json({ deleted: true }) : jsonError(404, 'not_found', 'There is no such alert.', 'id');
};

/** POST /api/alerts/whatsapp `{number, consent: true}`: sends a code over WhatsApp (never to a number that sent STOP). */
export const postNumber: EndpointHandler = async (context) => {
  const { locals, request } = context;
  const input = await readSignedInPost(request, signedIn(locals), NumberBody);
  if (!input.ok) return input.response;
  const { session, data } = input;
  const rights = rightsOf(session);
  if (!rights.dailyUpdate) return forbidden('dailyUpdate');
  const number = whatsappNumberOf(data.number);
  if (!number) return jsonError(400, 'invalid_input', 'That is not a phone number: give it with the country code, e.g. +91 98200 12345.', 'number');
  const address = clientAddressOf(context);
  const byAddress = addressCodeLimiter.hit([`address:${address ?? 'unknown'}`]);
  if (!byAddress.ok) return tooManyCodes(byAddress.retryAfterSeconds);
  const byUser = codeLimiter.hit([`code:${session.uid}`]);
  if (!byUser.ok) return tooManyCodes(byUser.retryAfterSeconds);
  const deps = await deliveryDeps();
  const now = deps.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const started = await deps.store.startWhatsAppCode({
    uid: session.uid,
    number,
    codeHash: whatsappCodeHash(session.uid, number, code),
    expiresAt: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
    now,
    limits: NUMBER_CODE_LIMITS,
    base: emptySettings(session.uid, rights, now),
  });
  if (!started.ok && started.reason === 'stopped') {
    return jsonError(409, 'whatsapp_stopped', 'This number sent STOP to PolyIndex on WhatsApp. Send START to PolyIndex from it first, then ask for a code.', 'number');
  }
  if (!started.ok) return tooManyCodes(started.retryAfterMs / 1000);
  try {
    const language = languageOf((await deps.store.getDeliverySettings(session.uid))?.language);
    await deps.whatsapp.send({ kind: 'template', to: number, template: verificationCodeTemplate(language), params: [code] });
  } catch (error) {
    console.error('[delivery] sending a verification code failed:', error instanceof Error ? error.message : error);
    return jsonError(502, 'whatsapp_failed', 'WhatsApp did not take the message. Check the number and try again.', 'number');
  }
  return json({ pending: displayNumber(number) }, 202);
};

/** POST /api/alerts/whatsapp/verify `{code}`: one try, counted before it is compared (five end a code). */
export const postCode: EndpointHandler = async ({ locals, request }) => {
  const input = await readSignedInPost(request, signedIn(locals), CodeBody);
  if (!input.ok) return input.response;
  const { session, data } = input;
  const deps = await deliveryDeps();
  const tried = await deps.store.tryWhatsAppCode({ uid: session.uid, code: data.code, now: deps.now(), maxAttempts: MAX_CODE_ATTEMPTS });
  if (tried.outcome === 'none') return jsonError(400, 'invalid_input', 'There is no code waiting: ask for a new one.', 'code');
  if (tried.outcome === 'wrong') return jsonError(400, 'invalid_input', 'That code is not right.', 'code');
  return json(await deliveryView(session));
};

/**
 * POST /api/unsubscribe?token=… : RFC 8058 one-click (a mail client posts
 * `List-Unsubscribe=One-Click`), and the button of /unsubscribe. Public: the signed token is
 * the authority. Idempotent.
 */
export const postUnsubscribe: EndpointHandler = async ({ request, url }) => {
  const deps = await deliveryDeps();
  const link = readUnsubscribeToken(deps.linkSecret, url.searchParams.get('token') ?? '', deps.now());
  if (!link) return jsonError(400, 'invalid_input', 'This unsubscribe link is not valid.', 'token');
  if (link.expired) {
    return jsonError(410, 'link_expired', `This unsubscribe link has expired (links work for ${UNSUBSCRIBE_LINK_DAYS} days). Open it in a browser to have a fresh one sent to the account's e-mail address.`, 'token');
  }
  // RFC 8058 fixes the body (`List-Unsubscribe=One-Click`, form-encoded): read only to bound it.
  const body = await readText(request);
  if (!body.ok) return body.response;
  return json(await unsubscribe(link.target));
};

/** At most one fresh link per account and kind of link in this window (per process). */
const freshLinkLimiter = createRateLimiter([{ windowMs: 60 * 60_000, max: 1 }]);

/**
 * The page of an expired (genuine) link asked for a fresh one: it goes to the e-mail address on
 * the account the link names, never to one the visitor gives, at most once an hour per account
 * and kind of link.
 */
export async function sendFreshUnsubscribeLink(link: UnsubscribeLink): Promise<'sent' | 'no_address' | 'too_soon'> {
  const deps = await deliveryDeps();
  const { target } = link;
  const to = (await deps.store.findUserBy('uid', target.uid))?.email;
  if (!to) return 'no_address';
  if (!freshLinkLimiter.hit([`${target.uid} ${target.what}`]).ok) return 'too_soon';
  await deps.sendMail(freshUnsubscribeMail(deps, to, target));
  return 'sent';
}

export async function unsubscribe(target: UnsubscribeTarget): Promise<{ unsubscribed: UnsubscribeTarget['what'] }> {
  const deps = await deliveryDeps();
  if (target.what === 'alert') {
    await deps.store.deleteAlert(target.uid, target.alertId);
    return { unsubscribed: 'alert' };
  }
  if (target.what === 'digest') {
    // The weekly forecast digest only: the daily update keeps its channels.
    await deps.store.patchDeliverySettings(target.uid, { forecastDigest: false }, deps.now(), null);
    return { unsubscribed: 'digest' };
  }
  // One field, in one transaction: a settings save at the same moment keeps the unsubscribe.
  await deps.store.patchDeliverySettings(target.uid, { email: false }, deps.now(), null);
  return { unsubscribed: 'daily' };
}

/**
 * GET /api/unsubscribe?token=…: a mail client (or a person) that opens the List-Unsubscribe
 * address instead of posting to it lands on the page that asks first.
 */
export const getUnsubscribe: EndpointHandler = ({ url }) =>
  new Response(null, { status: 303, headers: { Location: `${UNSUBSCRIBE_PAGE_PATH}?token=${encodeURIComponent(url.searchParams.get('token') ?? '')}`, 'Cache-Control': 'no-store' } });
