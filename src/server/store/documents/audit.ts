/** The audit log and the audited user update (../audit.ts), written once over the document driver. */
import { userTarget, type AdminUpdate, type AdminUpdateResult, type AuditPage, type AuditStore } from '../audit.ts';
import { definedFields, type UserRecord } from '../users.ts';
import type { DocumentDriver, Filter } from './driver.ts';

export const DEFAULT_AUDIT_PAGE_SIZE = 50;
const MAX_AUDIT_PAGE_SIZE = 200;

const sameRecord = (a: UserRecord, b: UserRecord): boolean => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));
};

export function createAuditStore(docs: DocumentDriver): AuditStore {
  return {
    adminUpdateUser<R>({ uid, change, actor, action, now }: AdminUpdate<R>): Promise<AdminUpdateResult<R>> {
      return docs.transact(async (tx): Promise<AdminUpdateResult<R>> => {
        const before = await tx.get('users', uid);
        if (!before) return { kind: 'not_found' };
        const outcome = change(before);
        if (!outcome.ok) return { kind: 'refused', reason: outcome.reason };
        const after: UserRecord = { ...before, ...definedFields(outcome.patch), uid: before.uid };
        if (sameRecord(before, after)) return { kind: 'unchanged', record: before };
        const entry = await tx.audit({ at: now.toISOString(), actor, action, target: userTarget(uid), before, after });
        tx.put('users', after);
        return { kind: 'updated', before, after, entry };
      });
    },

    async listAudit(query = {}): Promise<AuditPage> {
      const pageSize = Math.min(Math.max(1, Math.floor(query.pageSize ?? DEFAULT_AUDIT_PAGE_SIZE)), MAX_AUDIT_PAGE_SIZE);
      const page = Math.max(1, Math.floor(query.page ?? 1));
      const filters: Filter[] = [];
      if (query.target?.trim()) filters.push({ index: 'target', value: query.target.trim() });
      const actor = query.actor?.trim();
      // An e-mail has an @, a Firebase uid does not: one equality, which Firestore combines with
      // the target filter through the indexes of firestore.indexes.json.
      if (actor) filters.push(actor.includes('@') ? { index: 'actorEmail', value: actor.toLowerCase() } : { index: 'actorUid', value: actor });
      const total = await docs.count('audit', filters);
      const skip = (page - 1) * pageSize;
      if (skip >= total) return { entries: [], total, page, pageSize };
      const entries = await docs.list('audit', filters, { order: 'desc', limit: pageSize, offset: skip });
      return { entries, total, page, pageSize };
    },
  };
}
