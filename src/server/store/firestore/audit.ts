/**
 * Firestore adapter of the audit log: `audit/{id}` documents (id zero-padded, so ids and
 * document names sort alike) numbered from the counter document `meta/audit`, and the audited
 * user update. An entry is written by the transaction that makes its change.
 */
import type { DocumentData, Firestore, Query, Transaction } from 'firebase-admin/firestore';
import type { AdminUpdate, AdminUpdateResult, AuditEntry, AuditPage, AuditStore, NewAuditEntry } from '../audit.ts';
import { userTarget } from '../audit.ts';
import { definedFields, type UserRecord } from '../users.ts';
import { notifyingAfter, transact } from './database.ts';
import { readUserIn, writeUserChanges } from './users.ts';

export const AUDIT = 'audit';
const COUNTER = 'meta/audit';

export const DEFAULT_AUDIT_PAGE_SIZE = 50;
const MAX_AUDIT_PAGE_SIZE = 200;

export const auditDocId = (id: number): string => String(id).padStart(12, '0');

export function auditEntryOf(data: DocumentData): AuditEntry {
  return {
    id: Number(data['id']),
    at: String(data['at']),
    actor: { uid: String(data['actorUid']), email: data['actorEmail'] == null ? null : String(data['actorEmail']) },
    action: String(data['action']),
    target: String(data['target']),
    before: (data['before'] ?? null) as AuditEntry['before'],
    after: (data['after'] ?? null) as AuditEntry['after'],
  };
}

export const auditDocOf = (entry: AuditEntry): Record<string, unknown> => ({
  id: entry.id,
  at: entry.at,
  actorUid: entry.actor.uid,
  actorEmail: entry.actor.email?.trim().toLowerCase() ?? null,
  action: entry.action,
  target: entry.target,
  before: entry.before,
  after: entry.after,
});

/**
 * Reads the audit counter inside `tx` (a transaction reads before it writes) and returns the
 * writer of this transaction's entries. Call the writer before any other write of the
 * transaction: its create() is the guard that makes two concurrent admin writes take
 * different numbers (the loser runs again).
 */
export async function auditWriterIn(db: Firestore, tx: Transaction): Promise<(entry: NewAuditEntry) => AuditEntry> {
  const counter = await tx.get(db.doc(COUNTER));
  let last = Number(counter.get('last') ?? 0);
  let used = false;
  return (entry) => {
    // One entry per transaction: the counter document is written once per commit.
    if (used) throw new Error('one audit entry per transaction');
    used = true;
    const written: AuditEntry = { ...entry, id: ++last, actor: { uid: entry.actor.uid, email: entry.actor.email?.trim().toLowerCase() ?? null } };
    tx.create(db.collection(AUDIT).doc(auditDocId(written.id)), auditDocOf(written));
    tx.set(db.doc(COUNTER), { last });
    return written;
  };
}

/** The counter after an import of entries with their own ids: later entries continue after them. */
export async function raiseAuditCounter(db: Firestore, atLeast: number): Promise<void> {
  await transact(db, async (tx) => {
    const counter = await tx.get(db.doc(COUNTER));
    if (Number(counter.get('last') ?? 0) < atLeast) tx.set(db.doc(COUNTER), { last: atLeast });
  });
}

const sameRecord = (a: UserRecord, b: UserRecord): boolean => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));
};

/** `usersWritten` is told when an admin change of a user record settles: the record cache. */
export function createFirestoreAuditStore(db: Firestore, usersWritten: () => void = () => undefined): AuditStore {
  const changing = notifyingAfter(usersWritten);
  return {
    adminUpdateUser<R>({ uid, change, actor, action, now }: AdminUpdate<R>): Promise<AdminUpdateResult<R>> {
      return changing(transact(db, async (tx): Promise<AdminUpdateResult<R>> => {
        const write = await auditWriterIn(db, tx);
        const stored = await readUserIn(db, tx, uid);
        if (!stored) return { kind: 'not_found' };
        const before = stored.record;
        const outcome = change(before);
        if (!outcome.ok) return { kind: 'refused', reason: outcome.reason };
        const after: UserRecord = { ...before, ...definedFields(outcome.patch), uid: before.uid };
        if (sameRecord(before, after)) return { kind: 'unchanged', record: before };
        const entry = write({ at: now.toISOString(), actor, action, target: userTarget(uid), before, after });
        writeUserChanges(db, tx, stored, after);
        return { kind: 'updated', before, after, entry };
      }));
    },

    async listAudit(query = {}): Promise<AuditPage> {
      const pageSize = Math.min(Math.max(1, Math.floor(query.pageSize ?? DEFAULT_AUDIT_PAGE_SIZE)), MAX_AUDIT_PAGE_SIZE);
      const page = Math.max(1, Math.floor(query.page ?? 1));
      let filtered: Query = db.collection(AUDIT);
      if (query.target?.trim()) filtered = filtered.where('target', '==', query.target.trim());
      const actor = query.actor?.trim();
      // An e-mail has an @, a Firebase uid does not: one equality instead of SQLite's OR, which
      // Firestore could only combine with the target filter through extra indexes.
      if (actor) filtered = actor.includes('@') ? filtered.where('actorEmail', '==', actor.toLowerCase()) : filtered.where('actorUid', '==', actor);
      // No offsets or cursors on every Firestore we run against: read up to the page's end,
      // and nothing at all for a page past the end.
      const total = (await filtered.count().get()).data().count;
      const skip = (page - 1) * pageSize;
      if (skip >= total) return { entries: [], total, page, pageSize };
      const snapshot = await filtered.orderBy('id', 'desc').limit(skip + pageSize).get();
      const entries = snapshot.docs.slice(skip).map((doc) => auditEntryOf(doc.data()));
      return { entries, total, page, pageSize };
    },
  };
}
