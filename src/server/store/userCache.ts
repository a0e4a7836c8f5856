/**
 * This process's copy of user records, for the session of every signed-in request (the port's
 * `cachedUser`; docs/decisions.md, "User records"). It holds records, never access decisions:
 * trial days and plan expiry are judged by the policy against each request's clock, so they
 * stay exact whatever the copy's age.
 *
 * - **This process's writes** are seen at once: every user write path of an adapter calls
 *   `written()` when the write settles (committed or not). Every entry is dropped, and a read
 *   that was in flight meanwhile is not kept (it may have read the record before the commit).
 * - **Other instances' writes** are seen within `boundMs`: every user write, wherever it runs,
 *   also changes the store's users version (a SQLite trigger; a Firestore document written in
 *   the same commit). An entry is served only while a version check that began at most
 *   `boundMs` ago found the version unchanged; past that, the request waits for a new check (no
 *   timer is trusted to have run, so the bound holds on a stalled event loop too). From
 *   `refreshAtMs` a check starts in the background, so a busy instance never waits for one.
 *   When a check fails, records are read from the store, as they were before there was a cache.
 * - **Writes that bypass the version** (a Firestore console edit, a legacy client) are seen
 *   within `maxAgeMs`: no entry is older.
 *
 * Times come from a monotonic clock: a wall clock stepped back would stretch the bound.
 */
import type { UserRecord } from './users.ts';

/** Another instance's user write counts here within this (docs/deploy.md, §1). */
export const USER_RECORD_BOUND_MS = 1_000;
/** A write that bypasses the users version (a Firestore console edit) counts here within this. */
export const USER_RECORD_MAX_AGE_MS = 30_000;
/** Records kept per process (about 1 KB each), least recently used out first. */
export const MAX_CACHED_USERS = 10_000;

/** What the cache reads: the adapter's plain look-up by uid, and its users version. */
export interface UserCacheSource {
  /** Changes with every committed user write, by any process; never takes an earlier value again. */
  readVersion(): Promise<string>;
  readRecord(uid: string): Promise<UserRecord | null>;
}

export interface UserCacheOptions {
  readonly boundMs?: number;
  /** When a background check starts; default three quarters of the bound. */
  readonly refreshAtMs?: number;
  readonly maxAgeMs?: number;
  readonly max?: number;
  /** Milliseconds on a monotonic clock (tests drive their own). */
  readonly now?: () => number;
}

interface Entry {
  readonly record: UserRecord | null;
  readonly readAt: number;
}

/** Records are shared by every request that reads them: nobody may change one. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

export class UserRecordCache {
  readonly #source: UserCacheSource;
  readonly #boundMs: number;
  readonly #refreshAtMs: number;
  readonly #maxAgeMs: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  /** Bumped whenever entries are dropped: a read begun before cannot be kept. */
  #generation = 0;
  /** The users version the entries belong to (undefined until the first check). */
  #version: string | undefined;
  /** When the newest successful check began: the entries reflect every write committed before. */
  #checkedAt = Number.NEGATIVE_INFINITY;
  #checking: { readonly startedAt: number; readonly done: Promise<void> } | null = null;

  constructor(source: UserCacheSource, options: UserCacheOptions = {}) {
    this.#source = source;
    this.#boundMs = options.boundMs ?? USER_RECORD_BOUND_MS;
    this.#refreshAtMs = options.refreshAtMs ?? this.#boundMs * 0.75;
    this.#maxAgeMs = options.maxAgeMs ?? USER_RECORD_MAX_AGE_MS;
    this.#max = options.max ?? MAX_CACHED_USERS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** The record of `uid` (null: none), from the copy when it may answer, else from the store. */
  async get(uid: string, { fresh = false }: { readonly fresh?: boolean } = {}): Promise<UserRecord | null> {
    const now = this.#now();
    if (!fresh && (await this.#confirmed(now))) {
      const hit = this.#entries.get(uid);
      if (hit && now - hit.readAt < this.#maxAgeMs) {
        // Map order is recency: a hit moves to the end, the oldest entry leaves first.
        this.#entries.delete(uid);
        this.#entries.set(uid, hit);
        return hit.record;
      }
    }
    const generation = this.#generation;
    const record = frozen(await this.#source.readRecord(uid));
    if (generation === this.#generation) {
      this.#entries.delete(uid);
      this.#entries.set(uid, { record, readAt: now });
      if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    }
    return record;
  }

  /** A user write of this process has settled (committed or not): nothing read before it is served. */
  written(): void {
    this.#drop();
  }

  /** `write`, with `written()` when it settles. */
  async after<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.written();
    }
  }

  /** Entries kept now (tests and diagnostics). */
  get size(): number {
    return this.#entries.size;
  }

  #drop(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /** True when the entries may be served at `now`: a check that began within the bound found no change. */
  async #confirmed(now: number): Promise<boolean> {
    const age = now - this.#checkedAt;
    if (age < this.#refreshAtMs) return true;
    if (age < this.#boundMs) {
      this.#check(now).catch(() => undefined);
      return true;
    }
    try {
      await this.#check(now);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Reads the users version; a change drops every entry. A check already running is joined only
   * if it began within the bound of `now` (one that hangs is not waited for by later requests).
   */
  #check(now: number): Promise<void> {
    const running = this.#checking;
    if (running && now - running.startedAt < this.#boundMs) return running.done;
    const startedAt = now;
    const done: Promise<void> = this.#source.readVersion().then(
      (version) => {
        if (version !== this.#version) {
          this.#version = version;
          this.#drop();
        }
        if (startedAt > this.#checkedAt) this.#checkedAt = startedAt;
        if (this.#checking?.done === done) this.#checking = null;
      },
      (error: unknown) => {
        if (this.#checking?.done === done) this.#checking = null;
        throw error;
      },
    );
    this.#checking = { startedAt, done };
    return done;
  }
}
