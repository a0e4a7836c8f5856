/** Saved comparison views (../savedViews.ts), written once over the document driver. */
import { byName, checkSavedView, MAX_SAVED_VIEWS, savedRecord, savedViewId, type SavedViewStore } from '../savedViews.ts';
import type { DocumentDriver } from './driver.ts';

export function createSavedViewStore(docs: DocumentDriver): SavedViewStore {
  return {
    async listSavedViews(uid) {
      return (await docs.list('savedViews', [{ index: 'uid', value: uid }])).toSorted(byName);
    },

    saveView(input) {
      checkSavedView(input);
      return docs.transact(async (tx) => {
        // The id follows from (uid, name key): a re-save reads exactly one record.
        const existing = await tx.get('savedViews', savedViewId(input.uid, input.name));
        if (!existing && (await tx.count('savedViews', [{ index: 'uid', value: input.uid }])) >= MAX_SAVED_VIEWS) return { kind: 'limit' as const };
        const view = savedRecord(existing, input);
        tx.put('savedViews', view);
        return { kind: existing ? ('replaced' as const) : ('created' as const), view };
      });
    },

    deleteSavedView(uid, id) {
      return docs.transact(async (tx) => {
        const view = await tx.get('savedViews', id);
        if (view?.uid !== uid) return false;
        tx.delete('savedViews', id);
        return true;
      });
    },
  };
}
