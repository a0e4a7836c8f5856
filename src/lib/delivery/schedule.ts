/**
 * When a daily update goes: at the subscriber's hour in India (IST, no daylight saving), once per
 * Indian calendar day, inside a delivery window. An update for hour H goes out from H:00 until
 * H + window (3 hours unless DELIVERY_WINDOW_HOURS says otherwise): a run missed by a restart is
 * made good by the next run inside the window, but a morning update is never sent at night. A
 * run after the window skips that day's update (and says so); the next one comes the next day.
 */
import { addDays, BUSINESS_TIME_ZONE, isoDateOf } from '../dates.ts';

const hourFormat = new Intl.DateTimeFormat('en-GB', { timeZone: BUSINESS_TIME_ZONE, hour: '2-digit', hourCycle: 'h23' });

/** The hour (0–23) of an instant in India. */
export const istHourOf = (now: Date): number => Number(hourFormat.format(now));

/** The Indian calendar day an instant belongs to. */
export const deliveryDayOf = (now: Date): string => isoDateOf(now);

/** The hour a subscriber gets when they have not chosen one. */
export const DEFAULT_DELIVERY_HOUR = 9;

/** How long after its hour an update may still go, unless configured (DELIVERY_WINDOW_HOURS). */
export const DEFAULT_DELIVERY_WINDOW_HOURS = 3;
/** The window a deployment may configure: at least an hour (the job runs hourly), at most half a day. */
export const MIN_DELIVERY_WINDOW_HOURS = 1;
export const MAX_DELIVERY_WINDOW_HOURS = 12;

const IST_OFFSET_MS = 5.5 * 3_600_000;

/** The instant an Indian calendar day's hour begins (IST is UTC+5:30 all year). */
export const istInstant = (day: string, hour: number): Date => new Date(Date.parse(`${day}T00:00:00Z`) + hour * 3_600_000 - IST_OFFSET_MS);

/**
 * Where a run at `now` stands for an update set for `hour`:
 * - `due`: inside the window of the update of `day` (which may be yesterday's, for a window
 *   that runs past midnight);
 * - `missed`: today's hour has come and its window has closed (that day's update is skipped);
 * - `waiting`: today's hour has not come yet.
 */
export type DailySlot =
  | { readonly state: 'due'; readonly day: string }
  | { readonly state: 'missed'; readonly day: string; readonly closedAt: Date }
  | { readonly state: 'waiting'; readonly day: string };

export function dailySlotOf(hour: number, now: Date, windowHours: number = DEFAULT_DELIVERY_WINDOW_HOURS): DailySlot {
  const today = deliveryDayOf(now);
  const window = windowHours * 3_600_000;
  const todays = istInstant(today, hour);
  if (now.getTime() >= todays.getTime()) {
    if (now.getTime() - todays.getTime() < window) return { state: 'due', day: today };
    return { state: 'missed', day: today, closedAt: new Date(todays.getTime() + window) };
  }
  // Before today's hour: yesterday's update may still be inside a window that ran past midnight.
  const yesterday = addDays(today, -1);
  const yesterdays = istInstant(yesterday, hour);
  if (now.getTime() - yesterdays.getTime() < window) return { state: 'due', day: yesterday };
  return { state: 'waiting', day: today };
}

/** The weekly forecast digest goes on this weekday (0 Sunday … 6 Saturday): Monday, the week's first trading day. */
export const DIGEST_WEEKDAY = 1;

const weekdayOf = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay();

/**
 * Whether the weekly forecast digest is due at `now`, and for which Monday: at the subscriber's
 * daily hour on Mondays, inside the same window as the daily update (a window past midnight
 * still sends Monday's digest early on Tuesday). A Monday whose window closed without a run is
 * not made good later in the week: the next digest is the next Monday's.
 */
export function weeklyDigestSlotOf(hour: number, now: Date, windowHours: number = DEFAULT_DELIVERY_WINDOW_HOURS): { readonly due: true; readonly day: string } | { readonly due: false } {
  const slot = dailySlotOf(hour, now, windowHours);
  return slot.state === 'due' && weekdayOf(slot.day) === DIGEST_WEEKDAY ? { due: true, day: slot.day } : { due: false };
}

/** A configured window, checked: whole hours from MIN to MAX. */
export function deliveryWindowHours(configured: number | undefined): number {
  if (configured === undefined) return DEFAULT_DELIVERY_WINDOW_HOURS;
  if (!Number.isInteger(configured) || configured < MIN_DELIVERY_WINDOW_HOURS || configured > MAX_DELIVERY_WINDOW_HOURS) {
    throw new RangeError(`DELIVERY_WINDOW_HOURS must be a whole number of hours from ${MIN_DELIVERY_WINDOW_HOURS} to ${MAX_DELIVERY_WINDOW_HOURS}, not ${configured}`);
  }
  return configured;
}

const clockFormat = new Intl.DateTimeFormat('en-GB', { timeZone: BUSINESS_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
/** "23:05 IST" */
export const istClockOf = (instant: Date): string => `${clockFormat.format(instant)} IST`;

const hh = (hour: number): string => `${String(((hour % 24) + 24) % 24).padStart(2, '0')}:00`;
const CHANNEL_WORDS = { email: 'e-mail', whatsapp: 'WhatsApp' } as const;

/**
 * What /alerts says about a skipped update: "Your update of Tue 24 Nov (e-mail) was skipped: the
 * delivery run came at 23:00 IST, after its window (09:00–12:00 IST). …"
 */
export function missedNotice({ day, ranAt, hour, windowHours, channels }: { day: string; ranAt: Date; hour: number; windowHours: number; channels: readonly ('email' | 'whatsapp')[] }): string {
  const dayText = (iso: string) => {
    const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
    const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
    return `${weekday} ${d} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1]}`;
  };
  const by = channels.length > 0 ? ` (${channels.map((c) => CHANNEL_WORDS[c]).join(' and ')})` : '';
  return (
    `Your update of ${dayText(day)}${by} was skipped: the delivery run came at ${istClockOf(ranAt)}, after its window (${hh(hour)}–${hh(hour + windowHours)} IST). ` +
    `Updates go only inside their window; the next one comes on ${dayText(addDays(day, 1))} from ${hh(hour)} IST.`
  );
}
