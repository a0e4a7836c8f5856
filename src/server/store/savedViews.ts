/**
 * Saved comparison views (the Store port's part): a signed-in user keeps named /compare
 * states. A view is its name and the canonical /compare query (src/lib/compare/state.ts);
 * saving under a name the user already has (ignoring case and spacing) replaces that view.
 */
import { createHash } from 'node:crypto';

export interface SavedView {
  readonly id: string;
  readonly uid: string;
  readonly name: string;
  /** The canonical /compare query, without `?`. */
  readonly query: string;
  /** ISO instants. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A user keeps at most this many views. */
export const MAX_SAVED_VIEWS = 50;

export type SaveViewResult = { readonly kind: 'created' | 'replaced'; readonly view: SavedView } | { readonly kind: 'limit' };

export interface SavedViewStore {
  /** A user's views, by name (case-insensitive). */
  listSavedViews(uid: string): Promise<SavedView[]>;
  /** Creates the view, or replaces the user's view of that name; refuses a new one past MAX_SAVED_VIEWS. One transaction. */
  saveView(input: { readonly uid: string; readonly name: string; readonly query: string; readonly now: Date }): Promise<SaveViewResult>;
  /** Deletes one of the user's views; false when the user has no view of that id. */
  deleteSavedView(uid: string, id: string): Promise<boolean>;
}

/** Names match ignoring case and runs of spaces. */
export const viewNameKey = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** A view's id follows from its owner and name, so both adapters agree and a re-save finds it. */
export const savedViewId = (uid: string, name: string): string =>
  createHash('sha256').update(`${uid}\n${viewNameKey(name)}`).digest('base64url').slice(0, 22);

/** Checks a view before it is written (the endpoint validated the text already). */
export function checkSavedView(view: Pick<SavedView, 'uid' | 'name' | 'query'>): void {
  if (!view.uid) throw new RangeError('a saved view needs its owner');
  if (!viewNameKey(view.name)) throw new RangeError('a saved view needs a name');
  if (!view.query) throw new RangeError('a saved view needs a query');
}

/** The record a save writes: a new view, or the existing one with the new name, query and time. */
export function savedRecord(existing: SavedView | null, input: { uid: string; name: string; query: string; now: Date }): SavedView {
  const at = input.now.toISOString();
  return {
    id: existing?.id ?? savedViewId(input.uid, input.name),
    uid: input.uid,
    name: input.name.trim().replace(/\s+/g, ' '),
    query: input.query,
    createdAt: existing?.createdAt ?? at,
    updatedAt: at,
  };
}

export const byName = (a: SavedView, b: SavedView): number => {
  const x = viewNameKey(a.name);
  const y = viewNameKey(b.name);
  return x < y ? -1 : x > y ? 1 : 0;
};
