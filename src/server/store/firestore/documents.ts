/**
 * The Firestore document driver (../documents/driver.ts): `{collection}/{key}` documents holding
 * the record's fields, plus its computed indexes and, for sequenced kinds, `_seq` (creation
 * order), which a read strips. ./collections.ts gives the kinds whose documents differ from
 * that (users, audit entries, the delivery log) and the other documents some writes carry
 * (the users version, the paid-order guard).
 *
 * A transaction's reads go through firebase-admin's transaction; its writes are held and
 * issued at the end of the work, creates first (the guards: docs/data.md), then the rest.
 * Lists with a limit are ordered by Firestore (composite indexes where they also filter:
 * firestore.indexes.json); lists without one filter by equality and sort in memory.
 */
import type { DocumentData, DocumentReference, DocumentSnapshot, Firestore, Query, Transaction, WriteBatch } from 'firebase-admin/firestore';
import { writeListeners, type DocumentDriver, type DocumentKind, type DocumentReads, type DocumentTransaction, type Filter, type ListOptions, type Rec } from '../documents/driver.ts';
import { ALREADY_EXISTS, DOCS_PER_COMMIT, grpcCode, queued, sequenceKey, transact } from './database.ts';
import { AUDIT_COUNTER, collectionOf, type FirestoreCollection } from './collections.ts';

/** Documents per exported page. */
export const FIRESTORE_EXPORT_PAGE = 500;

const compare = (a: unknown, b: unknown): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a ?? '');
  const y = String(b ?? '');
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The existing document's `_seq`, or a new one (this process's keys increase). */
const seqOf = (existing: DocumentSnapshot | undefined): string => {
  const seq = existing?.exists ? existing.get('_seq') : undefined;
  return typeof seq === 'string' && seq ? seq : sequenceKey();
};

function queryOf(db: Firestore, layout: Pick<FirestoreCollection<never>, 'collection' | 'field'>, filters: readonly Filter[]): Query {
  let query: Query = db.collection(layout.collection);
  for (const filter of filters) query = query.where(layout.field(filter.index), filter.op ?? '==', filter.value);
  return query;
}

/** Reads of a kind, outside a transaction or inside one (`run` reads through it). */
function readsOf(db: Firestore, run: { get(ref: DocumentReference): Promise<DocumentSnapshot>; query(query: Query): Promise<readonly DocumentSnapshot[]>; count(query: Query): Promise<number> }): DocumentReads {
  async function list<K extends DocumentKind>(kind: K, filters: readonly Filter[], options: ListOptions = {}): Promise<Rec<K>[]> {
    const layout = collectionOf(kind);
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    let docs: readonly DocumentSnapshot[];
    if (options.limit !== undefined && options.order) {
      // Ordered and cut by Firestore; no offsets on every Firestore we run against: read to the page's end.
      docs = (await run.query(queryOf(db, layout, filters).orderBy(layout.orderField, options.order).limit(offset + Math.floor(options.limit)))).slice(offset);
    } else {
      const query = queryOf(db, layout, filters);
      docs = await run.query(options.limit !== undefined ? query.limit(offset + Math.floor(options.limit)) : query);
      // A document written by another client lacks our index fields: found by the record's own field.
      if (docs.length === 0 && filters.length === 1 && layout.legacyField?.(filters[0]!.index)) {
        const field = layout.legacyField(filters[0]!.index)!;
        for (const value of new Set([filters[0]!.asTyped ?? filters[0]!.value, filters[0]!.value])) {
          docs = await run.query(db.collection(layout.collection).where(field, '==', value));
          if (docs.length > 0) break;
        }
      }
      docs = docs.toSorted((a, b) => compare(a.get(layout.orderField), b.get(layout.orderField)) || compare(a.id, b.id));
      if (options.order === 'desc') docs = docs.toReversed();
      docs = docs.slice(offset, options.limit !== undefined ? offset + Math.floor(options.limit) : undefined);
    }
    return docs.map((doc) => layout.recordOf(doc.data()!, doc.id));
  }

  return {
    async get(kind, key) {
      const layout = collectionOf(kind);
      let id: string;
      try {
        id = layout.docId(key);
      } catch {
        return null; // a key no document can have: nothing is stored under it
      }
      const snapshot = await run.get(db.collection(layout.collection).doc(id));
      return snapshot.exists ? layout.recordOf(snapshot.data()!, snapshot.id) : null;
    },
    list,
    async count(kind, filters) {
      return run.count(queryOf(db, collectionOf(kind), filters));
    },
  };
}

export function createFirestoreDocuments(db: Firestore): DocumentDriver {
  const { onWritten, notify } = writeListeners();
  const refOf = <K extends DocumentKind>(kind: K, record: Rec<K>): DocumentReference => {
    const layout = collectionOf(kind);
    return db.collection(layout.collection).doc(layout.docId(layout.keyOf(record)));
  };

  /** The held writes of one attempt of a transaction. */
  function transactionOver(tx: Transaction, touched: Set<DocumentKind>) {
    const read = new Map<string, DocumentSnapshot>();
    const creates: (() => void)[] = [];
    const writes: (() => void)[] = [];
    const companions = new Set<DocumentKind>();
    let audited = false;
    const remember = (docs: readonly DocumentSnapshot[]) => {
      for (const doc of docs) read.set(doc.ref.path, doc);
      return docs;
    };
    const wrote = (kind: DocumentKind) => {
      touched.add(kind);
      const layout = collectionOf(kind);
      if (layout.alsoWrite && !companions.has(kind)) {
        companions.add(kind);
        writes.push(() => layout.alsoWrite!(db, tx));
      }
    };
    const reads = readsOf(db, {
      get: async (ref) => remember([await tx.get(ref)])[0]!,
      query: async (query) => remember((await tx.get(query)).docs),
      count: async (query) => (await tx.get(query.select())).size,
    });
    const documentTx: DocumentTransaction = {
      ...reads,
      put(kind, record) {
        const layout = collectionOf(kind);
        const ref = refOf(kind, record);
        const previous = read.get(ref.path);
        const before = previous?.exists ? layout.recordOf(previous.data()!, previous.id) : null;
        for (const path of layout.guards?.(record, before) ?? []) creates.push(() => tx.create(db.doc(path.path), path.data));
        if (layout.mergeWrites && previous?.exists) writes.push(() => layout.mergeWrites!(tx, ref, previous, record));
        else writes.push(() => tx.set(ref, layout.docOf(record, seqOf(previous))));
        wrote(kind);
      },
      create(kind, record) {
        const ref = refOf(kind, record);
        creates.push(() => tx.create(ref, collectionOf(kind).docOf(record, sequenceKey())));
        wrote(kind);
      },
      delete(kind, key) {
        const layout = collectionOf(kind);
        const ref = db.collection(layout.collection).doc(layout.docId(key));
        writes.push(() => tx.delete(ref));
        wrote(kind);
      },
      async audit(entry) {
        if (audited) throw new Error('one audit entry per transaction');
        audited = true;
        const counter = db.doc(AUDIT_COUNTER);
        const last = Number((await tx.get(counter)).get('last') ?? 0);
        const written = { ...entry, id: last + 1, actor: { uid: entry.actor.uid, email: entry.actor.email?.trim().toLowerCase() ?? null } };
        // The entry's create() is the guard: two concurrent admin writes cannot take one number.
        documentTx.create('audit', written);
        writes.push(() => tx.set(counter, { last: written.id }));
        return written;
      },
    };
    return {
      documentTx,
      commit() {
        for (const write of [...creates, ...writes]) write();
      },
    };
  }

  async function importDocuments<K extends DocumentKind>(kind: K, records: readonly Rec<K>[]): Promise<void> {
    const layout = collectionOf(kind);
    const readsExisting = layout.sequenced || layout.mergeWrites !== undefined;
    // A third of a commit of documents at a time: each may need a delete and a companion besides its set.
    const perRead = Math.floor(DOCS_PER_COMMIT / 3);
    for (let i = 0; i < records.length; i += perRead) {
      const chunk = records.slice(i, i + perRead);
      const refs = chunk.map((record) => refOf(kind, record));
      const existing = readsExisting ? await db.getAll(...refs) : [];
      let batch: WriteBatch = db.batch();
      let writes = 0;
      const batches: WriteBatch[] = [batch];
      chunk.forEach((record, index) => {
        const doc: DocumentData = layout.docOf(record, seqOf(existing[index]));
        // Fields the record lacks are dropped by deleting first (the stand-in's set would keep them).
        const before = existing[index];
        const needsDelete = before?.exists === true && Object.keys(before.data()!).some((key) => doc[key] === undefined);
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
    if (layout.alsoWrite) {
      const batch = db.batch();
      layout.alsoWrite(db, batch);
      await queued(db, () => batch.commit());
    }
    await layout.afterImport?.(db, records);
  }

  return {
    ...readsOf(db, {
      get: (ref) => ref.get(),
      query: async (query) => (await query.get()).docs,
      count: async (query) => (await query.count().get()).data().count,
    }),

    async transact(work) {
      const touched = new Set<DocumentKind>();
      try {
        return await transact(db, async (tx) => {
          const attempt = transactionOver(tx, touched);
          const result = await work(attempt.documentTx);
          attempt.commit();
          return result;
        });
      } finally {
        notify(touched);
      }
    },

    async createOnce(kind, record) {
      const layout = collectionOf(kind);
      // The create() first: a commit that meets an existing record writes nothing (the stand-in
      // stops at the first failed write; Firestore commits all or nothing).
      const batch = db.batch();
      batch.create(refOf(kind, record), layout.docOf(record, sequenceKey()));
      layout.alsoWrite?.(db, batch);
      try {
        await batch.commit();
        return true;
      } catch (error) {
        if (grpcCode(error) === ALREADY_EXISTS) return false;
        throw error;
      } finally {
        notify([kind]);
      }
    },

    onWritten,

    async *exportRecords(kind) {
      const layout = collectionOf(kind);
      for await (const docs of walk(db, layout.collection, layout.orderField)) yield docs.map((doc) => layout.recordOf(doc.data()!, doc.id));
    },

    async importRecords(kind, records) {
      if (records.length === 0) return 0;
      const layout = collectionOf(kind);
      for (const record of records) layout.docId(layout.keyOf(record));
      try {
        await importDocuments(kind, records);
      } finally {
        notify([kind]);
      }
      return records.length;
    },

    async ping() {
      await db.doc(PING_DOC).get();
    },
  };
}

/** What ping() reads: one small document (the users version; missing is fine). */
const PING_DOC = 'meta/users';

/**
 * Export pages walk a unique top-level field (`where(field > last) orderBy(field) limit(n)`: no
 * offsets or cursors, which the offline stand-in lacks). A document without that field (a
 * legacy user document without `_seq`) is not in such a query: when the collection counts more
 * documents than the pages held, the missing ones are found by their names and read too.
 */
async function* walk(db: Firestore, name: string, pageField: string): AsyncGenerator<DocumentSnapshot[]> {
  const collection = db.collection(name);
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
  const total = (await collection.count().get()).data().count;
  if (total <= seen.size) return;
  const names = await collection.select().get();
  const missing = names.docs.filter((doc) => !seen.has(doc.id)).map((doc) => doc.ref);
  for (let i = 0; i < missing.length; i += FIRESTORE_EXPORT_PAGE) {
    const docs = await db.getAll(...missing.slice(i, i + FIRESTORE_EXPORT_PAGE));
    const found = docs.filter((doc) => doc.exists);
    if (found.length > 0) yield found;
  }
}
