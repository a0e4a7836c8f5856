/** Ordering and filtering of posts, independent of where they are stored. */
import { monthOf, yearOf, type IsoDate } from './dates.ts';

export interface Dated {
  readonly date: IsoDate;
}

/** Newest first; equal dates keep a stable order. */
export const newestFirst = <T extends { data: Dated }>(posts: readonly T[]): T[] =>
  posts.toSorted((a, b) => (a.data.date < b.data.date ? 1 : a.data.date > b.data.date ? -1 : 0));

export const inMonth = (date: IsoDate, year: number, month: number): boolean =>
  yearOf(date) === year && monthOf(date) === month;
