/** What the mail endpoints share: who is asking (rate-limit keys), the 429 answer, common fields. */
import type { APIContext } from 'astro';
import { z } from 'astro/zod';
import { jsonError } from '../http/responses.ts';
import type { RateDecision } from './rateLimit.ts';

/** The client's address as the adapter saw it; 'unknown' when there is none (e.g. a test context). */
export function clientIp(context: Pick<APIContext, 'clientAddress'>): string {
  try {
    return context.clientAddress || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Rate-limit keys of a request: its IP and, when signed in, its user. */
export const rateKeys = (context: Pick<APIContext, 'clientAddress' | 'locals'>): string[] => [
  `ip:${clientIp(context)}`,
  ...(context.locals.session ? [`user:${context.locals.session.uid}`] : []),
];

export function tooManyRequests(decision: Extract<RateDecision, { ok: false }>): Response {
  const response = jsonError(429, 'rate_limited', `Too many messages. Try again in ${decision.retryAfterSeconds} s.`);
  response.headers.set('Retry-After', String(decision.retryAfterSeconds));
  return response;
}

/** An e-mail address as a person types it: trimmed, one mailbox, no display name. */
export const emailField = (label = 'E-mail') =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .max(254, `${label} is too long.`)
    .pipe(z.email({ error: `${label} is not a valid e-mail address.` }));

/** Free text with a length limit; empty after trimming is missing. */
export const textField = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} is too long (at most ${max} characters).`);
