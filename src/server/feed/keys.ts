/**
 * The data feed's keys: how one is made, written, recognised and turned into the caller it acts
 * for. A key reads `pik_<id>_<secret>`: `pik_<id>` is its visible prefix (the key page lists it,
 * a request finds the record by `id` with one read), the secret is 32 random bytes (base64url).
 * The store keeps only SHA-256 of the whole key (node:crypto: a key has 256 bits of entropy, so
 * a fast hash is enough and no salt or slow hash is needed), compared in constant time.
 *
 * A key acts for its owner with the owner's rights at the moment of the request: the key's
 * record, the owner's user record and team seat are the store's at every request (read again,
 * or kept only while the store's change mark says nothing was written since; never the copy of
 * user records cookies use), and the access policy decides as it does for a cookie. A revoked
 * key has no record: the next request on any instance is refused.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { entitlementOf, type SeatFacts } from '../../lib/access/policy.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { isInTrial } from '../../lib/trial.ts';
import { seatFactsOf, type SeatReader } from '../auth/seat.ts';
import type { KeyPlace, KeyPrincipal, Session } from '../auth/session.ts';

export type { KeyPlace, KeyPrincipal } from '../auth/session.ts';
import { STORE_READ_TIMEOUT_MS, UnavailableError, withTimeout } from '../outages.ts';
import type { ApiKeyRecord, ApiKeyStore } from '../store/apiKeys.ts';
import type { UserRecord } from '../store/users.ts';

export const KEY_PREFIX = 'pik_';
const KEY_SHAPE = /^pik_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** SHA-256 of a key, hex (what the store keeps); node:crypto's one-shot hash, as it runs at every keyed request. */
export const hashKey = (key: string): string => hash('sha256', key, 'hex');

/** A new key: the text shown once, and its public id. */
export function mintKey(): { readonly key: string; readonly id: string } {
  const bytes = randomBytes(12);
  const id = Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
  return { key: `${KEY_PREFIX}${id}_${randomBytes(32).toString('base64url')}`, id };
}

/** The visible prefix of a key of this id (`pik_ab12cd34ef56`). */
export const visiblePrefix = (id: string): string => `${KEY_PREFIX}${id}`;

/** The public id of a text shaped like a key, or null. */
export const keyIdOf = (key: string): string | null => KEY_SHAPE.exec(key)?.[1] ?? null;

/** Whether `key` is the key of `record` (constant time). */
export function keyMatches(key: string, record: Pick<ApiKeyRecord, 'hash'>): boolean {
  const given = Buffer.from(hashKey(key), 'latin1');
  const kept = Buffer.from(record.hash, 'latin1');
  return given.length === kept.length && timingSafeEqual(given, kept);
}


/** The name of the query parameter of a URL key (CSV only, opt-in per key). */
export const URL_KEY_PARAM = 'key';

/** The paths a key is read on (the data feed's reads). */
export const isFeedPath = (pathname: string): boolean => pathname.startsWith('/api/v1/');

/** The owner's session a key stands for; null for a key no record matches. Throws UnavailableError when the store cannot answer. */
export type ApiKeyReader = (key: string, place: KeyPlace, now: Date) => Promise<Session | null>;

/** Keys whose owner this process has seen, and who it is (a key's owner never changes), at most this many. */
const KNOWN_OWNERS_MAX = 10_000;
/** Keys whose facts this process keeps while the store's change mark stays the same, at most this many. */
const KEPT_FACTS_MAX = 10_000;

/** What a request of a key needs from the store: the key's record, its owner's and the owner's team seat. */
interface KeyFacts {
  readonly record: ApiKeyRecord;
  readonly user: UserRecord | null;
  readonly seat: SeatFacts | null;
}

/** Facts kept while the change mark stays, with the key text that was found to match their record's hash. */
interface KeptFacts {
  readonly facts: KeyFacts;
  readonly key: string;
}

/**
 * Whether two texts are the same, in a time that depends on their length alone (a key's length is
 * no secret: every key has the same shape). A key kept beside its facts is compared so, not hashed
 * again: the hash was the largest cost of a kept key's request.
 */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

type KeyStores = SeatReader & Pick<ApiKeyStore, 'findApiKey'> & { changeMark?(): number | null };

export function apiKeyReader(store: () => Promise<KeyStores>): ApiKeyReader {
  // The key's record, its owner's and the seat's are the store's at the moment of the request,
  // never this process's copy of user records: a key revoked, a plan lapsed or a seat removed on
  // any instance ends the key at its next request. Two ways to be exact, by what the store offers:
  //  - its change mark (a SQLite file: `PRAGMA data_version`, one statement) is the same as when
  //    the facts were read: no write was committed anywhere since, so they are still the store's;
  //  - otherwise they are read. A key's owner never changes, so once this process has seen a key,
  //    its record and its owner's are read at once (two round trips become one on Firestore);
  //    the owner's uid is checked against the key's record before the owner's record counts.
  const knownOwners = new Map<string, string>();
  // The key texts kept here live in this process's memory only, as the requests that carried them do,
  // and go with the facts at the next write anywhere.
  const kept = new Map<string, KeptFacts>();
  let keptMark: number | null = null;
  let keptStore: KeyStores | null = null;

  async function readFacts(opened: KeyStores, id: string, key: string): Promise<KeyFacts | null> {
    const fresh = true;
    const known = knownOwners.get(id);
    const [record, early] = await Promise.all([
      withTimeout(opened.findApiKey(id), 'reading an API key', STORE_READ_TIMEOUT_MS),
      known === undefined ? undefined : withTimeout(opened.cachedUser(known, { fresh }), "reading the key owner's record", STORE_READ_TIMEOUT_MS),
    ]);
    if (!record || !keyMatches(key, record)) return null;
    if (known !== record.ownerUid) {
      if (knownOwners.size >= KNOWN_OWNERS_MAX) knownOwners.delete(knownOwners.keys().next().value!);
      knownOwners.set(id, record.ownerUid);
    }
    const user = known === record.ownerUid && early !== undefined ? early : await withTimeout(opened.cachedUser(record.ownerUid, { fresh }), "reading the key owner's record", STORE_READ_TIMEOUT_MS);
    // A key of a seat-holder has the rights of the seat (the owner's plan) at every request, as the holder's cookie does.
    const seat = await withTimeout(seatFactsOf(opened, record.ownerUid, user, { fresh }), "reading the key owner's team seat", STORE_READ_TIMEOUT_MS);
    return { record, user, seat };
  }

  return async (key, place, now) => {
    const id = keyIdOf(key);
    if (!id) return null;
    let facts: KeyFacts | null;
    try {
      const opened = await store();
      // Asked before anything is read: a write committed after this changes it for the next request.
      const mark = opened.changeMark?.() ?? null;
      // A mark says nothing of another store (tests open several in one process, one after another).
      if (mark !== keptMark || opened !== keptStore) {
        kept.clear();
        keptMark = mark;
        keptStore = opened;
      }
      const hit = mark === null ? undefined : kept.get(id);
      // The key that matched before is the same key; another text with the same id is checked against the hash.
      if (hit) facts = sameText(key, hit.key) || keyMatches(key, hit.facts.record) ? hit.facts : null;
      else {
        facts = await readFacts(opened, id, key);
        if (facts && mark !== null && keptMark === mark && keptStore === opened) {
          if (kept.size >= KEPT_FACTS_MAX) kept.delete(kept.keys().next().value!);
          kept.set(id, { facts, key });
        }
      }
    } catch (error) {
      throw new UnavailableError('store', 'The API key cannot be checked.', { cause: error });
    }
    if (!facts) return null;
    const { record, user, seat } = facts;
    const apiKey: KeyPrincipal = { record, place };
    // Plan expiry and trial days are judged against this request's clock, kept facts or not.
    return {
      uid: record.ownerUid,
      email: user?.email ?? null,
      record: user,
      seat,
      entitlement: entitlementOf({ uid: record.ownerUid, record: user, seat }, now),
      inTrial: isInTrial(user, isoDateOf(now)),
      apiKey,
    };
  };
}

/** A URL (or path and query) with any key in it replaced, for logs and messages. */
export function withoutKey(text: string): string {
  return text.replace(/pik_[a-z0-9]{12}_[A-Za-z0-9_-]+/g, 'pik_…').replace(new RegExp(`([?&]${URL_KEY_PARAM}=)[^&#]*`, 'g'), '$1…');
}
