/**
 * What the API keys page does (/account/api-keys): make a key (shown once), revoke one, list an
 * owner's keys with their use, and their usage per day. Every action is the signed-in owner's on
 * their own keys (the store filters by owner: one user never reads another's keys or usage);
 * the form's input is checked with zod, and a refusal says which field and why.
 */
import { z } from 'astro/zod';
import { hasDataFeed } from '../../lib/access/policy.ts';
import { addDays } from '../../lib/dates.ts';
import type { Session } from '../auth/session.ts';
import { DEFAULT_MONTHLY_QUOTA, DEFAULT_RATE_PER_MINUTE, MAX_API_KEYS, usageDayOf, type ApiKeyListing, type ApiKeyRecord, type ApiKeyStore, type ApiKeyUsageDay } from '../store/apiKeys.ts';
import { hashKey, mintKey } from './keys.ts';

export const MAX_KEY_NAME = 60;
/** How many days of usage the key page shows. */
export const USAGE_DAYS = 30;

export const CreateKeyForm = z.object({
  name: z
    .string({ error: 'Give the key a name, such as the sheet it is for.' })
    .transform((text) => text.trim().replace(/\s+/g, ' '))
    .pipe(z.string().min(1, 'Give the key a name, such as the sheet it is for.').max(MAX_KEY_NAME, `A key's name has at most ${MAX_KEY_NAME} characters.`)),
  urlKey: z
    .enum(['on'], { error: 'urlKey is "on" or absent.' })
    .optional()
    .transform((value) => value === 'on'),
});

export const RevokeKeyForm = z.object({
  id: z.string({ error: 'Which key? (id)' }).regex(/^[a-z0-9]{12}$/, 'That is not a key id.'),
});

export type CreateKeyResult =
  | { readonly kind: 'created'; readonly key: string; readonly record: ApiKeyRecord }
  | { readonly kind: 'limit' }
  | { readonly kind: 'no_feed' };

const actorOf = (session: Session) => ({ uid: session.uid, email: session.email });

/** Whether this visitor's plan includes the feed now (the page offers keys only then). */
export const feedIncluded = (session: Session, now: Date): boolean => hasDataFeed(session, now);

/** A new key's limits (the configuration's FEED_RATE_PER_MINUTE and FEED_MONTHLY_QUOTA). */
export interface KeyLimits {
  readonly ratePerMinute: number;
  readonly monthlyQuota: number;
}

const DEFAULT_LIMITS: KeyLimits = { ratePerMinute: DEFAULT_RATE_PER_MINUTE, monthlyQuota: DEFAULT_MONTHLY_QUOTA };

export async function createKey(store: ApiKeyStore, session: Session, input: z.output<typeof CreateKeyForm>, now: Date, limits: KeyLimits = DEFAULT_LIMITS): Promise<CreateKeyResult> {
  if (!feedIncluded(session, now)) return { kind: 'no_feed' };
  const { key, id } = mintKey();
  const record: ApiKeyRecord = {
    id,
    ownerUid: session.uid,
    name: input.name,
    hash: hashKey(key),
    createdAt: now.toISOString(),
    urlKey: input.urlKey,
    ratePerMinute: limits.ratePerMinute,
    monthlyQuota: limits.monthlyQuota,
  };
  return (await store.createApiKey(record, actorOf(session))) === 'limit' ? { kind: 'limit' } : { kind: 'created', key, record };
}

/** Revokes one of the owner's keys; false when they have none of that id. */
export const revokeKey = async (store: ApiKeyStore, session: Session, id: string, now: Date): Promise<boolean> =>
  (await store.deleteApiKey(session.uid, id, actorOf(session), now)) !== null;

export { visiblePrefix } from './keys.ts';

export interface KeyPageData {
  readonly keys: readonly ApiKeyListing[];
  readonly usage: readonly ApiKeyUsageDay[];
  readonly maxKeys: number;
}

/** An owner's keys and the last USAGE_DAYS days of their use (a revoked key's use stays, under its id). */
export async function keyPageData(store: ApiKeyStore, uid: string, now: Date): Promise<KeyPageData> {
  // Usage days are India's, as the meter counts them.
  const fromDay = addDays(usageDayOf(now), -(USAGE_DAYS - 1));
  const [keys, usage] = await Promise.all([store.listApiKeys(uid, now), store.apiKeyUsage(uid, fromDay)]);
  return { keys, usage, maxKeys: MAX_API_KEYS };
}

/** What a POST to the key page asked and what came of it (the page renders it). */
export type KeyPageAction =
  | { readonly kind: 'created'; readonly key: string; readonly name: string }
  | { readonly kind: 'revoked'; readonly name: string }
  | { readonly kind: 'problem'; readonly status: 400 | 403 | 404 | 409; readonly field: string | null; readonly message: string };

/** Handles the key page's form (`action=create|revoke`): validated with zod, the owner's own keys only. */
export async function keyPageAction(store: ApiKeyStore, session: Session, form: FormData, now: Date, limits: KeyLimits = DEFAULT_LIMITS): Promise<KeyPageAction> {
  const fields = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  if (fields['action'] === 'create') {
    const parsed = CreateKeyForm.safeParse(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { kind: 'problem', status: 400, field: String(issue.path[0] ?? 'name'), message: issue.message };
    }
    const made = await createKey(store, session, parsed.data, now, limits);
    if (made.kind === 'no_feed') return { kind: 'problem', status: 403, field: null, message: 'Your plan does not include the data feed. Platinum includes it.' };
    if (made.kind === 'limit') return { kind: 'problem', status: 409, field: 'name', message: `You have ${MAX_API_KEYS} keys already: revoke one you no longer use first.` };
    return { kind: 'created', key: made.key, name: made.record.name };
  }
  if (fields['action'] === 'revoke') {
    const parsed = RevokeKeyForm.safeParse(fields);
    if (!parsed.success) return { kind: 'problem', status: 400, field: 'id', message: parsed.error.issues[0]!.message };
    const revoked = await store.deleteApiKey(session.uid, parsed.data.id, actorOf(session), now);
    return revoked ? { kind: 'revoked', name: revoked.name } : { kind: 'problem', status: 404, field: 'id', message: 'You have no key of that id (it may be revoked already).' };
  }
  return { kind: 'problem', status: 400, field: 'action', message: 'action must be create or revoke.' };
}
