/**
 * The transfer port (`npm run store:copy`) for Firestore's record-per-document kinds: users,
 * orders, payment events, audit entries and saved views. The price kinds are ./prices.ts's
 * (createFirestorePriceTransfer); ./transfer.ts puts both together.
 *
 * Export pages walk a unique top-level field (`where(field > last) orderBy(field) limit(n)`: no
 * offsets or cursors, which the offline stand-in lacks): users and orders by `_seq` (creation
 * order, so a copy keeps it), events by `id`, audit entries by `id`. A document without that
 * field (a legacy user document without `_seq`) is not in such a query: when the collection
 * counts more documents than the pages held, the missing ones are found by their names and
 * read too.
 *
 * Import writes whole documents in commits of at most DOCS_PER_COMMIT writes, after checking
 * every record (ids usable as document names, finite numbers) before the first write. Every
 * write is an idempotent upsert: a commit that failed midway is completed by running the copy
 * again. A document that exists keeps its `_seq`; a new one gets sequenceKey() in the order the
 * records come (this process's keys increase), so the source's order is kept. Where an existing
 * user document holds fields the record lacks, it is deleted before the write in the same
 * commit (the stand-in's `set` would keep such fields; real Firestore drops them).
 */
import type { CollectionReference, DocumentData, DocumentSnapshot, Firestore, WriteBatch } from 'firebase-admin/firestore';
import type { AuditEntry } from '../audit.ts';
import type { OrderRecord } from '../payments.ts';
import type { PaymentEventRecord, TransferKind, TransferRecords } from '../transfer.ts';
import type { UserRecord } from '../users.ts';
import { AUDIT, auditDocId, auditDocOf, auditEntryOf, raiseAuditCounter } from './audit.ts';
import { DOCS_PER_COMMIT, docId, queued, sequenceKey } from './database.ts';
import { ORDERS, orderDocOf, orderOf, PAID_ORDERS, PAYMENT_EVENTS } from './payments.ts';
import { USERS, bumpUsersVersion, userDocOf, userRecordOf } from './users.ts';
import { ALERTS, alertDocOf, alertOf, contactDocOf, contactOf, DELIVERY_LOG, DELIVERY_SETTINGS, logDocId, logDocOf, logOf, settingsDocOf, settingsOf, WHATSAPP_CONTACTS } from './delivery.ts';
import type { AlertRecord, DeliveryLogRecord, DeliverySettings, WhatsAppContact } from '../delivery.ts';
import { SAVED_VIEWS, savedViewDocOf, savedViewOf } from './savedViews.ts';
import type { SavedView } from '../savedViews.ts';

export const DOCUMENT_KINDS = ['users', 'orders', 'paymentEvents', 'audit', 'deliverySettings', 'alerts', 'whatsappContacts', 'deliveryLog', 'savedViews'] as const satisfies readonly TransferKind[];
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const isDocumentKind = (kind: TransferKind): kind is DocumentKind => (DOCUMENT_KINDS as readonly TransferKind[]).includes(kind);

/** The transfer port restricted to some kinds. */
export interface PartialTransfer<Kinds extends TransferKind> {
  exportRecords<K extends Kinds>(kind: K): AsyncIterable<readonly TransferRecords[K][]>;
  importRecords<K extends Kinds>(kind: K, records: readonly TransferRecords[K][]): Promise<number>;
}

/** Documents per exported page. */
export const FIRESTORE_EXPORT_PAGE = 500;

interface KindLayout<R> {
  readonly collection: string;
  /** The unique top-level field pages walk. */
  readonly pageField: string;
  readonly recordOf: (doc: DocumentSnapshot) => R;
  readonly idOf: (record: R) => string;
  readonly check: (record: R) => void;
  /** The whole document, given the existing one's `_seq` (or a new one). */
  readonly docOf: (record: R, existing: DocumentSnapshot | undefined) => Record<string, unknown>;
  /** Whether existing documents must be read before writing (for their `_seq` and fields). */
  readonly readsExisting: boolean;
  /**
   * Documents that must agree with the record, written in the same commit: `data` null deletes.
   * (An imported order's `paidOrders` guard exists exactly when the order is paid, so a
   * re-imported unpaid order can be paid again and a paid one never twice.)
   */
  readonly companions?: (record: R) => readonly { readonly path: string; readonly data: Record<string, unknown> | null }[];
}

type Layouts = { [K in DocumentKind]: KindLayout<TransferRecords[K]> };

const seqOf = (existing: DocumentSnapshot | undefined): string => {
  const seq = existing?.exists ? existing.get('_seq') : undefined;
  return typeof seq === 'string' && seq ? seq : sequenceKey();
};

const finite = (what: string, value: unknown): void => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`not a finite number: ${what}`);
};

const LAYOUTS: Layouts = {
  users: {
    collection: USERS,
    pageField: '_seq',
    recordOf: (doc) => userRecordOf(doc.data()!, doc.id),
    idOf: (user: UserRecord) => user.uid,
    check: (user) => {
      docId(user.uid);
    },
    docOf: (user, existing) => userDocOf(user, seqOf(existing)),
    readsExisting: true,
  },
  orders: {
    collection: ORDERS,
    pageField: '_seq',
    recordOf: (doc) => orderOf(doc.data()!),
    idOf: (order: OrderRecord) => order.id,
    check: (order) => {
      docId(order.id);
      finite(`amount of order ${order.id}`, order.amount);
    },
    docOf: (order, existing) => orderDocOf(order, seqOf(existing)),
    readsExisting: true,
    companions: (order) => [{ path: `${PAID_ORDERS}/${docId(order.id)}`, data: order.status === 'paid' ? { orderId: order.id, paidAt: order.updatedAt } : null }],
  },
  paymentEvents: {
    collection: PAYMENT_EVENTS,
    pageField: 'id',
    recordOf: (doc): PaymentEventRecord => ({ id: String(doc.get('id') ?? doc.id), type: String(doc.get('type')), receivedAt: String(doc.get('receivedAt')) }),
    idOf: (event: PaymentEventRecord) => event.id,
    check: (event) => {
      docId(event.id);
    },
    docOf: (event) => ({ id: event.id, type: event.type, receivedAt: event.receivedAt }),
    readsExisting: false,
  },
  audit: {
    collection: AUDIT,
    pageField: 'id',
    recordOf: (doc) => auditEntryOf(doc.data()!),
    idOf: (entry: AuditEntry) => auditDocId(entry.id),
    check: (entry) => {
      if (!Number.isSafeInteger(entry.id) || entry.id < 1) throw new RangeError(`not an audit id: ${String(entry.id)}`);
    },
    docOf: (entry) => auditDocOf(entry),
    readsExisting: false,
  },
  deliverySettings: {
    collection: DELIVERY_SETTINGS,
    pageField: 'uid',
    recordOf: (doc) => settingsOf(doc.data()!),
    idOf: (s: DeliverySettings) => s.uid,
    check: (s) => {
      docId(s.uid);
    },
    docOf: (s) => settingsDocOf(s),
    readsExisting: false,
  },
  alerts: {
    collection: ALERTS,
    pageField: 'id',
    recordOf: (doc) => alertOf(doc.data()!),
    idOf: (a: AlertRecord) => a.id,
    check: (a) => {
      docId(a.id);
      finite(`value of alert ${a.id}`, a.value);
    },
    docOf: (a) => alertDocOf(a),
    readsExisting: false,
  },
  whatsappContacts: {
    collection: WHATSAPP_CONTACTS,
    pageField: 'number',
    recordOf: (doc) => contactOf(doc.data()!),
    idOf: (c: WhatsAppContact) => c.number,
    check: (c) => {
      docId(c.number);
    },
    docOf: (c) => contactDocOf(c),
    readsExisting: false,
  },
  deliveryLog: {
    collection: DELIVERY_LOG,
    pageField: 'key',
    recordOf: (doc) => logOf(doc.data()!),
    // The document id is the key, URI-encoded (see ./delivery.ts).
    idOf: (l: DeliveryLogRecord) => logDocId(l.key),
    check: (l) => {
      logDocId(l.key);
    },
    docOf: (l) => logDocOf(l),
    readsExisting: false,
  },
  savedViews: {
    collection: SAVED_VIEWS,
    pageField: 'id',
    recordOf: (doc) => savedViewOf(doc.data()!),
    idOf: (view: SavedView) => view.id,
    check: (view) => {
      docId(view.id);
      if (!view.uid) throw new RangeError(`saved view ${view.id} has no owner`);
    },
    docOf: (view) => savedViewDocOf(view),
    readsExisting: false,
  },
};

/** Fields of `existing` that `replacement` lacks (a plain set on the stand-in would keep them). */
const extraFields = (existing: DocumentSnapshot | undefined, replacement: Record<string, unknown>): boolean =>
  existing?.exists === true && Object.keys(existing.data()!).some((key) => replacement[key] === undefined);

async function* walk(collection: CollectionReference, pageField: string): AsyncGenerator<DocumentSnapshot[]> {
  const seen = new Set<string>();
  let last: unknown = null;
  for (;;) {
    const query = last === null ? collection.orderBy(pageField).limit(FIRESTORE_EXPORT_PAGE) : collection.where(pageField, '>', last).orderBy(pageField).limit(FIRESTORE_EXPORT_PAGE);
    const page = await query.get();
    for (const doc of page.docs) seen.add(doc.id);
    if (page.docs.length > 0) yield page.docs;
    if (page.docs.length < FIRESTORE_EXPORT_PAGE) break;
    last = page.docs[page.docs.length - 1]!.get(pageField);
  }
  // Documents the field order did not reach (the field missing or of another type).
  const total = (await collection.count().get()).data().count;
  if (total <= seen.size) return;
  const names = await collection.select().get();
  const missing = names.docs.filter((doc) => !seen.has(doc.id)).map((doc) => doc.ref);
  for (let i = 0; i < missing.length; i += FIRESTORE_EXPORT_PAGE) {
    const docs = await collection.firestore.getAll(...missing.slice(i, i + FIRESTORE_EXPORT_PAGE));
    const found = docs.filter((doc) => doc.exists);
    if (found.length > 0) yield found;
  }
}

export function createFirestoreDocumentTransfer(db: Firestore, usersWritten: () => void = () => undefined): PartialTransfer<DocumentKind> {
  /** Writes records of a kind as they are, in commits of at most DOCS_PER_COMMIT documents. */
  async function importDocuments<K extends DocumentKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number> {
    const layout = LAYOUTS[kind] as KindLayout<TransferRecords[K]>;
    const collection = db.collection(layout.collection);
    // A third of a commit of documents at a time: each may need a delete and a companion besides its set.
    const perRead = Math.floor(DOCS_PER_COMMIT / 3);
    for (let i = 0; i < records.length; i += perRead) {
      const chunk = records.slice(i, i + perRead);
      const refs = chunk.map((record) => collection.doc(docId(layout.idOf(record))));
      const existing = layout.readsExisting ? await db.getAll(...refs) : [];
      let batch: WriteBatch = db.batch();
      let writes = 0;
      const batches: WriteBatch[] = [batch];
      chunk.forEach((record, index) => {
        const doc: DocumentData = layout.docOf(record, existing[index]);
        const needsDelete = extraFields(existing[index], doc);
        const companions = layout.companions?.(record) ?? [];
        const count = (needsDelete ? 2 : 1) + companions.length;
        if (writes + count > DOCS_PER_COMMIT) {
          batch = db.batch();
          batches.push(batch);
          writes = 0;
        }
        if (needsDelete) batch.delete(refs[index]!);
        batch.set(refs[index]!, doc);
        for (const { path, data } of companions) {
          if (data === null) batch.delete(db.doc(path));
          else batch.set(db.doc(path), data);
        }
        writes += count;
      });
      for (const commit of batches) await queued(db, () => commit.commit());
    }
    if (kind === 'audit') {
      const highest = Math.max(...(records as readonly AuditEntry[]).map((entry) => entry.id));
      await raiseAuditCounter(db, highest);
    }
    return records.length;
  }

  return {
    async *exportRecords<K extends DocumentKind>(kind: K): AsyncGenerator<readonly TransferRecords[K][]> {
      const layout = LAYOUTS[kind] as KindLayout<TransferRecords[K]>;
      for await (const docs of walk(db.collection(layout.collection), layout.pageField)) yield docs.map(layout.recordOf);
    },

    async importRecords<K extends DocumentKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number> {
      const layout = LAYOUTS[kind] as KindLayout<TransferRecords[K]>;
      for (const record of records) layout.check(record);
      if (records.length === 0) return 0;
      if (kind !== 'users') return importDocuments(kind, records);
      // User records: the users version changes after them, so other instances' caches drop
      // theirs (a copy cut short before that is seen there within USER_RECORD_MAX_AGE_MS).
      try {
        await importDocuments(kind, records);
        const batch = db.batch();
        bumpUsersVersion(db, batch);
        await queued(db, () => batch.commit());
      } finally {
        usersWritten();
      }
      return records.length;
    },
  };
}
