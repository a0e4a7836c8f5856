/**
 * When a daily update is due: at the subscriber's hour in India (IST, no daylight saving), once
 * per Indian calendar day. A run at or after the hour sends what is due, so a run missed by a
 * restart is made good by the next one the same day.
 */
import { BUSINESS_TIME_ZONE, isoDateOf } from '../dates.ts';

const hourFormat = new Intl.DateTimeFormat('en-GB', { timeZone: BUSINESS_TIME_ZONE, hour: '2-digit', hourCycle: 'h23' });

/** The hour (0–23) of an instant in India. */
export const istHourOf = (now: Date): number => Number(hourFormat.format(now));

/** The Indian calendar day a daily update belongs to. */
export const deliveryDayOf = (now: Date): string => isoDateOf(now);

export const isDailyUpdateDue = (hour: number, now: Date): boolean => istHourOf(now) >= hour;

/** The hour a subscriber gets when they have not chosen one. */
export const DEFAULT_DELIVERY_HOUR = 9;
