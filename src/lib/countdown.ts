/** "1 day 4 h" style remaining time for the trial banner and renewal notices. */
import type { IsoDate } from './dates.ts';

/** The instant a calendar day starts in India (IST is UTC+5:30, no daylight saving). */
export function startOfIndianDay(date: IsoDate): Date {
  return new Date(`${date}T00:00:00+05:30`);
}

export function timeLeftLabel(until: Date, now: Date): string | null {
  const ms = until.getTime() - now.getTime();
  if (ms <= 0) return null;
  const hours = Math.floor(ms / 3_600_000);
  const days = Math.floor(hours / 24);
  const restHours = hours % 24;
  if (days > 0) return `${days} day${days === 1 ? '' : 's'}${restHours ? ` ${restHours} h` : ''}`;
  if (hours > 0) return `${hours} h`;
  return `${Math.max(1, Math.ceil(ms / 60_000))} min`;
}
