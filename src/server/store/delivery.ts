/**
 * The `delivery` part of the Store port: each user's delivery settings (daily-update
 * series, channels, hour IST, verified WhatsApp number with its opt-in time), threshold alerts
 * with their last state, WhatsApp contacts by number (opt-in / STOP, the 24-hour service window)
 * and the sent-log that makes every message go once, across restarts and instances.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AlertKind, AlertState } from '../../lib/delivery/alerts.ts';
import type { DeliveryLanguage } from '../../lib/delivery/language.ts';

export type Channel = 'email' | 'whatsapp';
export const CHANNELS: readonly Channel[] = ['email', 'whatsapp'];

export interface DeliverySettings {
  readonly uid: string;
  /** Instrument ids of the daily update, in the order chosen (src/lib/delivery/instruments.ts). */
  readonly series: readonly string[];
  /** The daily update by e-mail. */
  readonly email: boolean;
  /** The daily update by WhatsApp (needs a verified number). */
  readonly whatsapp: boolean;
  /** The hour in India (0–23) from which the day's update goes. */
  readonly hour: number;
  /** The language of the daily update, alerts and bot answers; absent (records before the choice) is English. */
  readonly language?: DeliveryLanguage;
  /** The weekly forecast digest (Mondays at `hour`, by the channels above); absent (records before the option) is off. */
  readonly forecastDigest?: boolean;
  /** The verified WhatsApp number (`919820012345`), or null. */
  readonly whatsappNumber: string | null;
  /** ISO instant of verification (also the opt-in: the form asks for consent before it). */
  readonly whatsappVerifiedAt: string | null;
  /** A number waiting for its code: the number, the code's SHA-256, expiry, failed tries. */
  readonly pending: PendingVerification | null;
  readonly updatedAt: string;
}

export interface PendingVerification {
  readonly number: string;
  readonly codeHash: string;
  readonly expiresAt: string;
  readonly attempts: number;
}

/** The fields a person changes on /alerts: endpoints patch these, never the whole record. */
export type DeliverySettingsPatch = Partial<Pick<DeliverySettings, 'series' | 'email' | 'whatsapp' | 'hour' | 'language' | 'forecastDigest'>>;

/** The SHA-256 a pending code is kept as (the code itself is never stored). */
export const whatsappCodeHash = (uid: string, number: string, code: string): string => createHash('sha256').update(`${uid}:${number}:${code}`).digest('hex');

/** A limit on codes sent to one number: at most `max` in any `windowMs`. */
export interface CodeLimit {
  readonly windowMs: number;
  readonly max: number;
}

export type CodeStart =
  | { readonly ok: true }
  /** The number sent STOP: nothing goes to it until it sends START. */
  | { readonly ok: false; readonly reason: 'stopped' }
  | { readonly ok: false; readonly reason: 'limited'; readonly retryAfterMs: number };

/** What one try of a code did: verified the number, counted a wrong code, or found none waiting (expired, used up, never sent). */
export type CodeTry = { readonly outcome: 'verified'; readonly number: string } | { readonly outcome: 'wrong' } | { readonly outcome: 'none' };

export interface AlertRecord extends AlertState {
  readonly id: string;
  readonly uid: string;
  /** An instrument id; for a `revision` alert, its target (`revisions.PP.reliance`, src/lib/delivery/revisionAlerts.ts). */
  readonly instrument: string;
  readonly kind: AlertKind | 'revision';
  /** A price in the instrument's unit, or a per-cent move; 0 for a `revision` alert (any revision fires it). */
  readonly value: number;
  readonly channels: readonly Channel[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A WhatsApp number as the Cloud API knows it, whoever owns it. */
export interface WhatsAppContact {
  readonly number: string;
  /** The user who verified it; null for a stranger. */
  readonly uid: string | null;
  /** false after STOP, true after verification or START. */
  readonly optedIn: boolean;
  /** When the number last opted in (verification or START). */
  readonly optInAt: string | null;
  readonly optOutAt: string | null;
  /** The last message from this number: free text may be sent for 24 hours after it. */
  readonly lastInboundAt: string | null;
  /** When verification codes went to this number, the last day's (its limit holds across instances). */
  readonly codeSentAt: readonly string[];
  /**
   * Which account asked for each of `codeSentAt` (same index): the limits hold per account and
   * number, so nobody can use up another account's codes for a number. Records written before it
   * lack it: their sends count against no account.
   */
  readonly codeSentBy?: readonly string[];
  readonly updatedAt: string;
}

export type DeliveryKind = 'daily' | 'digest' | 'alert' | 'code' | 'inbound';

/**
 * A log record's life: `pending` (recorded, to be sent: an alert's crossing is recorded with its
 * state step), `claimed` (a sender holds it, for CLAIM_LEASE_MS), `sent`, or `dropped` (given up:
 * the alert was deleted, the plan or the number is gone, or its retry time ran out).
 */
export type DeliveryStatus = 'pending' | 'claimed' | 'sent' | 'dropped';

/** One message (or inbound event) that must happen once: its claim, then its completion. */
export interface DeliveryLogRecord {
  /** `{kind}:{uid}:{ref}:{channel}` (deliveryKey). */
  readonly key: string;
  readonly uid: string;
  readonly kind: DeliveryKind;
  /** The day (daily), the Monday (digest), `{alertId}#{crossing}` (alert), a message id (inbound). */
  readonly ref: string;
  readonly channel: Channel | 'none';
  readonly status: DeliveryStatus;
  /** When it was first recorded (retries and pruning count from here). */
  readonly createdAt: string;
  /** When it was last claimed (or recorded, while pending). */
  readonly claimedAt: string;
  /** The token of the claim that holds it: only that claim completes or releases it. */
  readonly claimId: string | null;
  readonly sentAt: string | null;
  /** What sending it later needs (an alert's crossing: the prices it fired on), as JSON text. */
  readonly payload: string | null;
}

export type NewDelivery = Pick<DeliveryLogRecord, 'uid' | 'kind' | 'ref' | 'channel'>;
/** A delivery recorded to be sent (an alert's crossing, in the transaction of its state step). */
export type PendingDelivery = NewDelivery & { readonly payload: string };

/** A held claim: complete or release it with this (a claim that lapsed and was taken over cannot). */
export interface DeliveryClaim {
  readonly delivery: NewDelivery;
  readonly claimId: string;
  readonly payload: string | null;
  readonly createdAt: string;
}

export const deliveryKey = ({ kind, uid, ref, channel }: NewDelivery): string => `${kind}:${uid}:${ref}:${channel}`;

/** How long a claim holds before another process may take it over (a sender that died). */
export const CLAIM_LEASE_MS = 10 * 60_000;

/**
 * How long the sent-log keeps a record: past every retry (alerts: a day), past Meta's webhook
 * retries (days), with room to look a delivery up. The hourly job prunes older records; on
 * Firestore a TTL policy on `expireAt` deletes them too (docs/deploy.md).
 */
export const DELIVERY_LOG_RETENTION_MS = 30 * 86_400_000;

export interface DeliveryStore {
  getDeliverySettings(uid: string): Promise<DeliverySettings | null>;
  /** Writes the whole record (by uid): imports, seeding and tests. Endpoints patch (below). */
  saveDeliverySettings(settings: DeliverySettings): Promise<void>;
  /**
   * Changes the named fields of a user's settings in one transaction, so concurrent writers of
   * other fields lose nothing. Without a record, `base` is patched and written (null: nothing is
   * written and null returned). WhatsApp stays off without a verified number. Returns the record after.
   */
  patchDeliverySettings(uid: string, patch: DeliverySettingsPatch, now: Date, base: DeliverySettings | null): Promise<DeliverySettings | null>;
  /** Every record with a channel on (the daily job's list). */
  listActiveDeliverySettings(): Promise<DeliverySettings[]>;
  /**
   * Before a verification code goes to `number` for `uid`, in one transaction: refused when the
   * number sent STOP (and not START since), or when the codes sent to it reach a limit; otherwise
   * the send time is recorded on the number and the user's pending code is this one (0 tries).
   */
  startWhatsAppCode(input: {
    readonly uid: string;
    readonly number: string;
    readonly codeHash: string;
    readonly expiresAt: string;
    readonly now: Date;
    readonly limits: readonly CodeLimit[];
    readonly base: DeliverySettings;
  }): Promise<CodeStart>;
  /**
   * One try of a code, in one transaction: the try is counted before the code is compared, so
   * concurrent tries cannot exceed `maxAttempts`. The right code verifies the number: the user's
   * settings get it (pending cleared; the channels stay as saved), its contact is theirs and opted in at `now`,
   * a number they verified before is no longer theirs, and another user who had this number loses it.
   */
  tryWhatsAppCode(input: { readonly uid: string; readonly code: string; readonly now: Date; readonly maxAttempts: number }): Promise<CodeTry>;

  /** Adds an alert; false when its id exists. */
  createAlert(alert: AlertRecord): Promise<boolean>;
  listAlertsByUid(uid: string): Promise<AlertRecord[]>;
  listAlertsByInstrument(instrument: string): Promise<AlertRecord[]>;
  /** Deletes one of the user's alerts; false when there is none with this id for this user. */
  deleteAlert(uid: string, id: string): Promise<boolean>;
  /**
   * Moves an alert from state `from` to `to` (compare and set, one transaction); false when its
   * stored state is no longer `from` (another writer stepped it) or it was deleted. The messages
   * of a step that fires are recorded `pending` in the same transaction, so a crash before they
   * are sent loses nothing (the hourly job retries them).
   */
  stepAlertState(id: string, from: AlertState, to: AlertState, now: Date, deliveries?: readonly PendingDelivery[]): Promise<boolean>;
  /**
   * Records the messages of one firing of an event alert (a producer revision: one per channel,
   * the same ref) `pending`, in one transaction, unless they were recorded before: the sent-log
   * key makes the firing happen once, whoever records it and however often. A firing recorded
   * now counts on the alert (`crossings`, `firedFor` = the ref's event). False when it was
   * recorded before or the alert is gone.
   */
  recordAlertFiring(id: string, deliveries: readonly PendingDelivery[], now: Date): Promise<boolean>;

  getWhatsAppContact(number: string): Promise<WhatsAppContact | null>;
  /** Records an inbound message's time (a stranger's number gets a contact of its own). */
  recordWhatsAppInbound(number: string, at: Date): Promise<WhatsAppContact>;
  /** STOP (false) or START (true), at once; returns the contact after the change. */
  setWhatsAppOptIn(number: string, optedIn: boolean, now: Date): Promise<WhatsAppContact>;

  /**
   * Claims one delivery: a claim when it was never recorded, is pending, or its claim lapsed
   * (`leaseMs`) without being sent; null when it is sent, dropped or another claim holds. The
   * claimer sends, then completes, or releases on failure so a later run can try again.
   */
  claimDelivery(delivery: NewDelivery, now: Date, leaseMs?: number): Promise<DeliveryClaim | null>;
  /** Marks it sent, if this claim still holds it (false: it lapsed and was taken over). */
  completeDelivery(claim: DeliveryClaim, now: Date): Promise<boolean>;
  /** Back to pending for a later try, if this claim still holds it. */
  releaseDelivery(claim: DeliveryClaim): Promise<boolean>;
  /** Gives it up for good (sent never), if this claim still holds it. */
  dropDelivery(claim: DeliveryClaim, now: Date): Promise<boolean>;
  /** Records of a kind still to be sent (pending, or claimed: a claim may have lapsed), oldest first. */
  listUnsentDeliveries(kind: DeliveryKind): Promise<DeliveryLogRecord[]>;
  /** Deletes the records created before `before` (any status); returns how many. */
  pruneDeliveries(before: Date): Promise<number>;
  /** A user's log entries, newest claim first (for tests and the sandbox view). */
  listDeliveries(uid: string): Promise<DeliveryLogRecord[]>;
}

const lapsed = (record: DeliveryLogRecord, now: Date, leaseMs: number): boolean =>
  record.status === 'claimed' && Date.parse(record.claimedAt) + leaseMs <= now.getTime();

/** Whether an existing log record may be claimed (again): every adapter asks this. */
export const claimable = (record: DeliveryLogRecord | null, now: Date, leaseMs: number = CLAIM_LEASE_MS): boolean =>
  record === null || record.status === 'pending' || lapsed(record, now, leaseMs);

/** The record of a new claim (over `existing`, which keeps its creation time and payload). */
export const claimedRecord = (delivery: NewDelivery, existing: DeliveryLogRecord | null, claimId: string, now: Date): DeliveryLogRecord => ({
  key: deliveryKey(delivery),
  uid: delivery.uid,
  kind: delivery.kind,
  ref: delivery.ref,
  channel: delivery.channel,
  status: 'claimed',
  createdAt: existing?.createdAt ?? now.toISOString(),
  claimedAt: now.toISOString(),
  claimId,
  sentAt: null,
  payload: existing?.payload ?? null,
});

export const claimOf = (record: DeliveryLogRecord): DeliveryClaim => ({
  delivery: { uid: record.uid, kind: record.kind, ref: record.ref, channel: record.channel },
  claimId: record.claimId!,
  payload: record.payload,
  createdAt: record.createdAt,
});

/** A pending record of a delivery (an alert's crossing). */
export const pendingRecord = (delivery: PendingDelivery, now: Date): DeliveryLogRecord => ({
  key: deliveryKey(delivery),
  uid: delivery.uid,
  kind: delivery.kind,
  ref: delivery.ref,
  channel: delivery.channel,
  status: 'pending',
  createdAt: now.toISOString(),
  claimedAt: now.toISOString(),
  claimId: null,
  sentAt: null,
  payload: delivery.payload,
});

/** Whether `claim` still holds this record. */
export const holds = (record: DeliveryLogRecord | null, claim: DeliveryClaim): boolean => record?.status === 'claimed' && record.claimId === claim.claimId;

/** The record after its claim ends: sent, back to pending, or dropped. */
export const endedRecord = (record: DeliveryLogRecord, end: 'sent' | 'pending' | 'dropped', now: Date): DeliveryLogRecord => ({
  ...record,
  status: end,
  claimId: null,
  sentAt: end === 'sent' ? now.toISOString() : null,
  ...(end === 'dropped' ? { claimedAt: now.toISOString() } : {}),
});

/** The settings after a patch (WhatsApp on only with a verified number). */
export function patchedSettings(current: DeliverySettings, patch: DeliverySettingsPatch, now: Date): DeliverySettings {
  const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)), updatedAt: now.toISOString() } as DeliverySettings;
  return next.whatsapp && !next.whatsappNumber ? { ...next, whatsapp: false } : next;
}

/** One code sent to a number, and the account that asked for it (null: recorded before accounts were). */
export interface CodeSend {
  readonly at: string;
  readonly by: string | null;
}

/** Code sends to a number within the longest limit window (older ones are forgotten). */
export const recentCodeSends = (contact: WhatsAppContact | null, now: Date, limits: readonly CodeLimit[]): CodeSend[] => {
  const longest = Math.max(0, ...limits.map((l) => l.windowMs));
  return (contact?.codeSentAt ?? [])
    .map((at, i) => ({ at, by: contact?.codeSentBy?.[i] ?? null }))
    .filter(({ at }) => now.getTime() - Date.parse(at) < longest);
};

/**
 * The decision of startWhatsAppCode (every adapter asks this): STOP refuses; a full window
 * refuses until its oldest send leaves it.
 */
export function codeStartOf(contact: WhatsAppContact | null, now: Date, limits: readonly CodeLimit[], uid: string): CodeStart {
  if (contact && !contact.optedIn && contact.optOutAt !== null) return { ok: false, reason: 'stopped' };
  // Only this account's sends count: another account's requests cannot lock it out of the number.
  const sends = recentCodeSends(contact, now, limits)
    .filter((send) => send.by === uid)
    .map((send) => Date.parse(send.at));
  let retryAfterMs = 0;
  for (const { windowMs, max } of limits) {
    const inWindow = sends.filter((at) => now.getTime() - at < windowMs).toSorted((a, b) => a - b);
    if (inWindow.length >= max) retryAfterMs = Math.max(retryAfterMs, inWindow[inWindow.length - max]! + windowMs - now.getTime());
  }
  return retryAfterMs > 0 ? { ok: false, reason: 'limited', retryAfterMs } : { ok: true };
}

/** The contact after a code went to it. */
export const contactWithCodeSent = (existing: WhatsAppContact | null, number: string, now: Date, limits: readonly CodeLimit[], uid: string): WhatsAppContact => {
  const sends = [...recentCodeSends(existing, now, limits), { at: now.toISOString(), by: uid }];
  return {
    ...(existing ?? strangerContact(number, now)),
    codeSentAt: sends.map((send) => send.at),
    // An unknown asker of an old record is kept as '' (matches no account).
    codeSentBy: sends.map((send) => send.by ?? ''),
    updatedAt: now.toISOString(),
  };
};

/**
 * One try of a code against the stored settings (every adapter asks this): `none` when nothing
 * valid is waiting, else the try counted and the code compared.
 */
export function codeTryOf(settings: DeliverySettings | null, uid: string, code: string, now: Date, maxAttempts: number): { readonly result: CodeTry; readonly counted: DeliverySettings | null } {
  const pending = settings?.pending;
  if (!settings || !pending || Date.parse(pending.expiresAt) <= now.getTime() || pending.attempts >= maxAttempts) return { result: { outcome: 'none' }, counted: null };
  const counted: DeliverySettings = { ...settings, pending: { ...pending, attempts: pending.attempts + 1 }, updatedAt: now.toISOString() };
  const given = Buffer.from(whatsappCodeHash(uid, pending.number, code), 'hex');
  const expected = Buffer.from(pending.codeHash, 'hex');
  const right = given.length === expected.length && timingSafeEqual(given, expected);
  return { result: right ? { outcome: 'verified', number: pending.number } : { outcome: 'wrong' }, counted };
}

export const sameAlertState = (a: AlertState, b: AlertState): boolean => a.reached === b.reached && a.firedFor === b.firedFor && a.crossings === b.crossings;

/** The contact after a verification by `uid` (other fields kept). */
export const verifiedContact = (existing: WhatsAppContact | null, number: string, uid: string, now: Date): WhatsAppContact => ({
  number,
  uid,
  optedIn: true,
  optInAt: now.toISOString(),
  optOutAt: existing?.optOutAt ?? null,
  lastInboundAt: existing?.lastInboundAt ?? null,
  codeSentAt: existing?.codeSentAt ?? [],
  codeSentBy: existing?.codeSentBy ?? [],
  updatedAt: now.toISOString(),
});

export const strangerContact = (number: string, now: Date): WhatsAppContact => ({
  number,
  uid: null,
  optedIn: false,
  optInAt: null,
  optOutAt: null,
  lastInboundAt: null,
  codeSentAt: [],
  codeSentBy: [],
  updatedAt: now.toISOString(),
});

/** The contact after STOP/START. */
export const optedContact = (existing: WhatsAppContact, optedIn: boolean, now: Date): WhatsAppContact => ({
  ...existing,
  optedIn,
  ...(optedIn ? { optInAt: now.toISOString() } : { optOutAt: now.toISOString() }),
  updatedAt: now.toISOString(),
});

/**
 * The settings after a verification. The daily update's channels stay as the user saved them:
 * a verified number is consent to receive messages, not a choice of what and when (the form
 * turns WhatsApp on; nothing is sent to a number before the user has chosen it).
 */
export const verifiedSettings = (settings: DeliverySettings, number: string, now: Date): DeliverySettings => ({
  ...settings,
  whatsappNumber: number,
  whatsappVerifiedAt: now.toISOString(),
  pending: null,
  updatedAt: now.toISOString(),
});
