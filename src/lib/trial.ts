/** The two-day trial of a new account: day granularity from `createdAt`. */
import { addDays, daysBetween, parseDashedDate, type IsoDate } from './dates.ts';
import { TRIAL } from './plans.ts';

/** How long the trial lasts: the plan table's (src/lib/plans.ts, TRIAL). */
export const TRIAL_DAYS: number = TRIAL.days;

export interface TrialSubject {
  readonly role?: string | null | undefined;
  readonly subscribed?: boolean | null | undefined;
  /** `DD-MM-YYYY` as the user record stores it. */
  readonly createdAt?: string | null | undefined;
}

/**
 * True while fewer than two whole days have passed since `createdAt`; false for a subscribed
 * user, after the trial, or when `createdAt` is not a real date; null for an admin or a
 * missing record.
 */
export function isInTrial(user: TrialSubject | null | undefined, today: IsoDate): boolean | null {
  if (!user || user.role === 'admin') return null;
  if (user.subscribed) return false;
  const created = parseDashedDate(user.createdAt ?? '');
  if (!created) return false;
  const elapsed = daysBetween(created, today);
  return elapsed >= 0 && elapsed < TRIAL_DAYS;
}

/** The first day the trial no longer covers, or null when there is no trial. */
export function trialEndsOn(user: TrialSubject | null | undefined): IsoDate | null {
  const created = parseDashedDate(user?.createdAt ?? '');
  return created ? addDays(created, TRIAL_DAYS) : null;
}
