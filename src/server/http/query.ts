/**
 * Query-string validation for endpoints: a zod schema over the raw text of each parameter
 * (first value wins); a failure is responses.ts's 400 `{error:{code,message,field}}` naming the
 * first bad field.
 */
import { z } from 'astro/zod';
import { isoDateOf } from '../../lib/dates.ts';
import { yearOptions } from '../../lib/years.ts';
import { parseOr400 } from './responses.ts';

export type QueryResult<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly response: Response };

/** Validates the query string (first value of each parameter) with `schema`; a failure is the 400. */
export function parseQuery<S extends z.ZodType>(url: URL, schema: S): QueryResult<z.output<S>> {
  const raw: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in raw)) raw[key] = value;
  return parseOr400(schema, raw);
}

/**
 * `parseQuery` with its successful answers remembered per query string and day (in India): a
 * chart's few queries are asked all day, and the fast lane should not run zod for each. Bounded;
 * failures (400s) are not remembered. The answers are shared: callers must not change them.
 */
export function memoQuery<S extends z.ZodType>(schemaOf: (now: Date) => S, max = 500): (url: URL, now?: Date) => QueryResult<z.output<S>> {
  const memo = new Map<string, z.output<S>>();
  return (url, now = new Date()) => {
    const key = `${isoDateOf(now)}${url.search}`;
    if (memo.has(key)) return { ok: true, data: memo.get(key) as z.output<S> };
    const result = parseQuery(url, schemaOf(now));
    if (result.ok) {
      if (memo.size >= max) memo.delete(memo.keys().next().value!);
      memo.set(key, result.data);
    }
    return result;
  };
}

/**
 * Builds a schema once per calendar year (its year bounds move on 1 January). zod compiles a
 * schema on first use, so a schema built per request would pay that cost every time.
 */
export function perYear<S>(build: (now: Date) => S): (now?: Date) => S {
  let memo: { year: number; schema: S } | null = null;
  return (now = new Date()) => {
    const year = currentYear(now);
    if (memo?.year !== year) memo = { year, schema: build(now) };
    return memo.schema;
  };
}

/** The current year in India. */
export const currentYear = (now: Date = new Date()): number => Number(isoDateOf(now).slice(0, 4));

/** An optional `year` among the data screens' years (current year back 12). */
export const yearParam = (now: Date = new Date()) => {
  const years = yearOptions(currentYear(now));
  const newest = years[0]!;
  const oldest = years.at(-1)!;
  return z
    .string()
    .regex(/^\d{4}$/, { error: 'year must be a four-digit year.' })
    .transform(Number)
    .refine((y) => y >= oldest && y <= newest, { error: `year must be between ${oldest} and ${newest}.` })
    .optional();
};

export const monthParam = z
  .string()
  .regex(/^\d{1,2}$/, { error: 'month must be a number from 1 to 12.' })
  .transform(Number)
  .refine((m) => m >= 1 && m <= 12, { error: 'month must be a number from 1 to 12.' })
  .optional();
