/**
 * The audit entry of a Firestore write that the backend-specific parts make (prices, banners,
 * posts), in the caller's transaction. The audit log itself is ../documents/audit.ts over the
 * document driver (`audit/{000000000042}`, numbered from `meta/audit`: ./collections.ts).
 */
import type { Firestore, Transaction } from 'firebase-admin/firestore';
import type { AuditEntry, NewAuditEntry } from '../audit.ts';
import { AUDIT_COUNTER, collectionOf } from './collections.ts';

/**
 * Reads the audit counter inside `tx` (a transaction reads before it writes) and returns the
 * writer of this transaction's entry. Call the writer before any other write of the
 * transaction: its create() is the guard that makes two concurrent admin writes take
 * different numbers (the loser runs again).
 */
export async function auditWriterIn(db: Firestore, tx: Transaction): Promise<(entry: NewAuditEntry) => AuditEntry> {
  const layout = collectionOf('audit');
  const counter = await tx.get(db.doc(AUDIT_COUNTER));
  let last = Number(counter.get('last') ?? 0);
  let used = false;
  return (entry) => {
    // One entry per transaction: the counter document is written once per commit.
    if (used) throw new Error('one audit entry per transaction');
    used = true;
    const written: AuditEntry = { ...entry, id: ++last, actor: { uid: entry.actor.uid, email: entry.actor.email?.trim().toLowerCase() ?? null } };
    tx.create(db.collection(layout.collection).doc(layout.docId(written.id)), layout.docOf(written, ''));
    tx.set(db.doc(AUDIT_COUNTER), { last });
    return written;
  };
}
