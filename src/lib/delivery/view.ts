/** What `/alerts` and `GET /api/alerts/settings` show of a user's delivery (shared by the server and the island). */
import type { AlertKind } from './alerts.ts';
import type { DeliveryLanguage } from './language.ts';

export interface DeliveryView {
  readonly rights: { readonly dailyUpdate: boolean; readonly alerts: boolean; readonly priceBot: boolean };
  readonly settings: { readonly series: readonly string[]; readonly email: boolean; readonly whatsapp: boolean; readonly hour: number; readonly language: DeliveryLanguage; readonly forecastDigest: boolean };
  /** Hours after its hour an update may still go (the delivery window). */
  readonly windowHours: number;
  /** The latest update (today's or yesterday's) a run skipped because it came after the window; null if none. */
  readonly missed: MissedUpdate | null;
  readonly whatsapp: {
    /** The verified number, for people (`+91 98200 12345`). */
    readonly number: string | null;
    readonly verifiedAt: string | null;
    /** false after STOP. */
    readonly optedIn: boolean;
    /** A number waiting for its code. */
    readonly pending: string | null;
  };
  readonly alerts: readonly AlertView[];
}

export interface MissedUpdate {
  /** The day whose update was skipped (ISO). */
  readonly day: string;
  /** When the run that skipped it came (ISO instant). */
  readonly ranAt: string;
  readonly channels: readonly ('email' | 'whatsapp')[];
  /** What /alerts says about it. */
  readonly message: string;
}

export interface AlertView {
  readonly id: string;
  readonly series: string;
  readonly label: string;
  /** `revision`: a producer list-price revision alert (`series` is its target, `revisions.PP.reliance`). */
  readonly kind: AlertKind | 'revision';
  readonly value: number;
  /** `value` as the page writes it: "2.5%" (a move), "₹110.00/kg" (a price level). */
  readonly valueText: string;
  readonly channels: readonly ('email' | 'whatsapp')[];
  readonly createdAt: string;
}

export interface InstrumentChoice {
  readonly id: string;
  readonly label: string;
  readonly unit: string;
  readonly group: string;
}

/** The next daily update as the phone will show it (/alerts' preview). */
export interface DailyPreview {
  /** The day it goes out (IST). */
  readonly day: string;
  readonly hour: number;
  /** The message, or null when no price is chosen. */
  readonly message: string | null;
}

/** A price's latest value, beside an alert's threshold. */
export interface CurrentPrice {
  readonly series: string;
  readonly unit: string;
  readonly latest: { readonly date: string; readonly value: number } | null;
  /** "612.50 US$/t", or "no price yet". */
  readonly text: string;
}
