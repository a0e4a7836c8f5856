/**
 * Firestore adapter of saved comparison views (see ../savedViews.ts): `savedViews/{id}`, the
 * whole view plus `nameKey`, found by `uid ==` (sorted in memory: no composite index). The id
 * follows from (uid, name key), so a re-save reads exactly one document.
 */
import type { DocumentData, Firestore } from 'firebase-admin/firestore';
import { byName, checkSavedView, MAX_SAVED_VIEWS, savedRecord, savedViewId, viewNameKey, type SavedView, type SavedViewStore } from '../savedViews.ts';
import { docId, transact, usableId } from './database.ts';

export const SAVED_VIEWS = 'savedViews';

export const savedViewOf = (data: DocumentData): SavedView => ({
  id: String(data['id']),
  uid: String(data['uid']),
  name: String(data['name']),
  query: String(data['query']),
  createdAt: String(data['createdAt']),
  updatedAt: String(data['updatedAt']),
});

/** The whole document of a view (always the same fields: see docs/data.md on the stand-in). */
export const savedViewDocOf = (view: SavedView): Record<string, unknown> => ({ ...view, nameKey: viewNameKey(view.name) });

export function createFirestoreSavedViewStore(db: Firestore): SavedViewStore {
  const views = db.collection(SAVED_VIEWS);
  return {
    async listSavedViews(uid) {
      const snapshot = await views.where('uid', '==', uid).get();
      return snapshot.docs.map((doc) => savedViewOf(doc.data())).toSorted(byName);
    },

    saveView(input) {
      checkSavedView(input);
      return transact(db, async (tx) => {
        const ref = views.doc(docId(savedViewId(input.uid, input.name)));
        const found = await tx.get(ref);
        const existing = found.exists ? savedViewOf(found.data()!) : null;
        if (!existing) {
          const count = (await tx.get(views.where('uid', '==', input.uid).select('id'))).size;
          if (count >= MAX_SAVED_VIEWS) return { kind: 'limit' as const };
        }
        const view = savedRecord(existing, input);
        tx.set(ref, savedViewDocOf(view));
        return { kind: existing ? ('replaced' as const) : ('created' as const), view };
      });
    },

    deleteSavedView(uid, id) {
      if (!usableId(id)) return Promise.resolve(false);
      return transact(db, async (tx) => {
        const ref = views.doc(id);
        const found = await tx.get(ref);
        if (!found.exists || found.get('uid') !== uid) return false;
        tx.delete(ref);
        return true;
      });
    },
  };
}
