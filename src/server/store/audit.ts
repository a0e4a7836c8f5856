/**
 * The `audit` part of the Store port: every admin write, recorded in the transaction that makes
 * it (who, when, what, the target's state before and after), and read back newest first.
 */
import type { UserRecord } from './users.ts';

/** Who made an admin change: the signed-in administrator. */
export interface AuditActor {
  readonly uid: string;
  readonly email: string | null;
}

export interface AuditEntry {
  /** Increasing with time; newest entries have the highest id. */
  readonly id: number;
  /** ISO instant. */
  readonly at: string;
  readonly actor: AuditActor;
  /** What was done, e.g. `user.role`, `user.grant`, `user.extend`, `user.revoke`. */
  readonly action: string;
  /** What it was done to, e.g. `user:{uid}`. */
  readonly target: string;
  /** The target's state before and after (JSON objects; null when it did not exist / was removed). */
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

export interface AuditQuery {
  /** Exact target, e.g. `user:demo-free`. */
  readonly target?: string | undefined;
  /** The actor's uid or e-mail (e-mail in any case). */
  readonly actor?: string | undefined;
  /** 1-based. */
  readonly page?: number | undefined;
  readonly pageSize?: number | undefined;
}

export interface AuditPage {
  readonly entries: readonly AuditEntry[];
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
}

/** The target name of a user record in the audit log. */
export const userTarget = (uid: string): string => `user:${uid}`;

/**
 * What an admin change makes of the current record: a patch to merge, or a refusal (with a
 * reason of the caller's type). Runs inside the transaction, on the record as it is now.
 */
export type AdminUserChange<R> = { readonly ok: true; readonly patch: Readonly<Record<string, unknown>> } | { readonly ok: false; readonly reason: R };

export type AdminUpdateResult<R> =
  | { readonly kind: 'updated'; readonly before: UserRecord; readonly after: UserRecord; readonly entry: AuditEntry }
  /** The patch changes nothing: nothing is written, no entry is made. */
  | { readonly kind: 'unchanged'; readonly record: UserRecord }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'refused'; readonly reason: R };

export interface AdminUpdate<R> {
  readonly uid: string;
  readonly change: (current: UserRecord) => AdminUserChange<R>;
  readonly actor: AuditActor;
  readonly action: string;
  readonly now: Date;
}

export interface AuditStore {
  /**
   * In one transaction: read the user record, ask `change` for a patch, merge it (unknown
   * fields kept, uid never moved), write it and record the audit entry. A refusal, a missing
   * record or a patch that changes nothing writes nothing.
   */
  adminUpdateUser<R>(update: AdminUpdate<R>): Promise<AdminUpdateResult<R>>;
  /** Entries newest first, a page at a time, optionally only one target's or one actor's. */
  listAudit(query?: AuditQuery): Promise<AuditPage>;
}
