/**
 * The `delivery` part of the Store port (DESIGN §5): each user's delivery settings (daily-update
 * series, channels, hour IST, verified WhatsApp number with its opt-in time), threshold alerts
 * with their last state, WhatsApp contacts by number (opt-in / STOP, the 24-hour service window)
 * and the sent-log that makes every message go once, across restarts and instances.
 */
import type { AlertKind, AlertState } from '../../lib/delivery/alerts.ts';

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

export interface AlertRecord extends AlertState {
  readonly id: string;
  readonly uid: string;
  /** An instrument id. */
  readonly instrument: string;
  readonly kind: AlertKind;
  /** A price in the instrument's unit, or a per-cent move. */
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
  readonly updatedAt: string;
}

export type DeliveryKind = 'daily' | 'alert' | 'code' | 'inbound';

/** One message (or inbound event) that must happen once: its claim, then its completion. */
export interface DeliveryLogRecord {
  /** `{kind}:{uid}:{ref}:{channel}` (deliveryKey). */
  readonly key: string;
  readonly uid: string;
  readonly kind: DeliveryKind;
  /** The day (daily), `{alertId}#{crossing}` (alert), a message id (inbound). */
  readonly ref: string;
  readonly channel: Channel | 'none';
  readonly status: 'claimed' | 'sent';
  readonly claimedAt: string;
  readonly sentAt: string | null;
}

export type NewDelivery = Pick<DeliveryLogRecord, 'uid' | 'kind' | 'ref' | 'channel'>;

export const deliveryKey = ({ kind, uid, ref, channel }: NewDelivery): string => `${kind}:${uid}:${ref}:${channel}`;

/** How long a claim holds before another process may take it over (a sender that died). */
export const CLAIM_LEASE_MS = 10 * 60_000;

export interface DeliveryStore {
  getDeliverySettings(uid: string): Promise<DeliverySettings | null>;
  /** Writes the whole record (by uid). */
  saveDeliverySettings(settings: DeliverySettings): Promise<void>;
  /** Every record with a channel on (the daily job's list). */
  listActiveDeliverySettings(): Promise<DeliverySettings[]>;
  /**
   * In one transaction: the user's settings get `number` as their verified WhatsApp number
   * (WhatsApp channel on, pending code cleared), the number's contact is theirs and opted in at
   * `now`, and a number they verified before is no longer theirs. False when the settings
   * changed meanwhile (no pending code for this number): nothing written.
   */
  verifyWhatsAppNumber(input: { readonly uid: string; readonly number: string; readonly now: Date }): Promise<boolean>;

  /** Adds an alert; false when its id exists. */
  createAlert(alert: AlertRecord): Promise<boolean>;
  listAlertsByUid(uid: string): Promise<AlertRecord[]>;
  listAlertsByInstrument(instrument: string): Promise<AlertRecord[]>;
  /** Deletes one of the user's alerts; false when there is none with this id for this user. */
  deleteAlert(uid: string, id: string): Promise<boolean>;
  /**
   * Moves an alert from state `from` to `to` (compare and set, one transaction); false when its
   * stored state is no longer `from` (another writer stepped it) or it was deleted.
   */
  stepAlertState(id: string, from: AlertState, to: AlertState, now: Date): Promise<boolean>;

  getWhatsAppContact(number: string): Promise<WhatsAppContact | null>;
  /** Records an inbound message's time (a stranger's number gets a contact of its own). */
  recordWhatsAppInbound(number: string, at: Date): Promise<WhatsAppContact>;
  /** STOP (false) or START (true), at once; returns the contact after the change. */
  setWhatsAppOptIn(number: string, optedIn: boolean, now: Date): Promise<WhatsAppContact>;

  /**
   * Claims one delivery: true when it was never claimed, or its claim lapsed (CLAIM_LEASE_MS)
   * without being sent; false when it is sent or another claim holds. The claimer sends, then
   * completes, or releases on failure so a later run can try again.
   */
  claimDelivery(delivery: NewDelivery, now: Date, leaseMs?: number): Promise<boolean>;
  completeDelivery(delivery: NewDelivery, now: Date): Promise<void>;
  releaseDelivery(delivery: NewDelivery): Promise<void>;
  /** A user's log entries, newest claim first (for tests and the sandbox view). */
  listDeliveries(uid: string): Promise<DeliveryLogRecord[]>;
}

const lapsed = (record: DeliveryLogRecord, now: Date, leaseMs: number): boolean =>
  record.status === 'claimed' && Date.parse(record.claimedAt) + leaseMs <= now.getTime();

/** Whether an existing log record may be claimed again (every adapter asks this). */
export const claimable = (record: DeliveryLogRecord | null, now: Date, leaseMs: number = CLAIM_LEASE_MS): boolean => record === null || lapsed(record, now, leaseMs);

export const sameAlertState = (a: AlertState, b: AlertState): boolean => a.reached === b.reached && a.firedFor === b.firedFor && a.crossings === b.crossings;

/** The contact after a verification by `uid` (other fields kept). */
export const verifiedContact = (existing: WhatsAppContact | null, number: string, uid: string, now: Date): WhatsAppContact => ({
  number,
  uid,
  optedIn: true,
  optInAt: now.toISOString(),
  optOutAt: existing?.optOutAt ?? null,
  lastInboundAt: existing?.lastInboundAt ?? null,
  updatedAt: now.toISOString(),
});

export const strangerContact = (number: string, now: Date): WhatsAppContact => ({
  number,
  uid: null,
  optedIn: false,
  optInAt: null,
  optOutAt: null,
  lastInboundAt: null,
  updatedAt: now.toISOString(),
});

/** The contact after STOP/START. */
export const optedContact = (existing: WhatsAppContact, optedIn: boolean, now: Date): WhatsAppContact => ({
  ...existing,
  optedIn,
  ...(optedIn ? { optInAt: now.toISOString() } : { optOutAt: now.toISOString() }),
  updatedAt: now.toISOString(),
});

/** The settings after a verification. */
export const verifiedSettings = (settings: DeliverySettings, number: string, now: Date): DeliverySettings => ({
  ...settings,
  whatsappNumber: number,
  whatsappVerifiedAt: now.toISOString(),
  whatsapp: true,
  pending: null,
  updatedAt: now.toISOString(),
});
