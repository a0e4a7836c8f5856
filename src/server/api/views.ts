/**
 * Saved comparison views over HTTP: `GET /api/views` (the user's views), `POST /api/views`
 * `{name, query}` (save; the same name replaces), `POST /api/views/{id}/remove`. The /compare
 * page's own save and remove forms call `saveView` and `removeView` too. Signed in with full
 * access (the policy's `full` row; the routes check again). No astro:* imports.
 */
import { z } from 'astro/zod';
import { compareHref, compareSearch, readCompareState } from '../../lib/compare/state.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { json, jsonError, parseOr400 } from '../http/responses.ts';
import { MAX_SAVED_VIEWS, type SavedView, type SavedViewStore } from '../store/savedViews.ts';

/** A view's name: what the user reads in their list. */
export const viewName = z
  .string({ error: 'name is required.' })
  .transform((name) => name.trim().replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, { error: 'Give the view a name.' })
      .max(80, { error: 'A view name has at most 80 characters.' })
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f<>]+$/, { error: 'A view name may not contain < > or control characters.' }),
  );

/** The /compare query of a view: it must name at least one known series and read cleanly. */
export const viewQuery = z
  .string({ error: 'query is required: the /compare query of the view.' })
  .max(2000, { error: 'query is too long.' })
  .transform((text, ctx) => {
    const { state, notes } = readCompareState(new URLSearchParams(text.replace(/^\?/, '')), isoDateOf(new Date()));
    if (notes.length > 0 || state.ids.length === 0) {
      ctx.addIssue({ code: 'custom', message: notes[0] ?? 'query must name at least one series (s=…).' });
      return z.NEVER;
    }
    return compareSearch(state);
  });

export const saveViewBody = z.object({ name: viewName, query: viewQuery });

/** A view as the API shows it: with the link that opens it. */
export const viewJson = (view: SavedView) => ({
  id: view.id,
  name: view.name,
  query: view.query,
  href: compareHref(readCompareState(new URLSearchParams(view.query), isoDateOf(new Date())).state),
  createdAt: view.createdAt,
  updatedAt: view.updatedAt,
});

export type SaveOutcome = { ok: true; status: 200 | 201; view: SavedView } | { ok: false; response: Response };

/** Validates and saves a view for `uid`: 201 created, 200 replaced, 400 bad input, 409 past the limit. */
export async function saveView(store: SavedViewStore, uid: string, input: unknown, now = new Date()): Promise<SaveOutcome> {
  const parsed = parseOr400(saveViewBody, input);
  if (!parsed.ok) return parsed;
  const result = await store.saveView({ uid, name: parsed.data.name, query: parsed.data.query, now });
  if (result.kind === 'limit') {
    return { ok: false, response: jsonError(409, 'too_many_views', `You can keep ${MAX_SAVED_VIEWS} views; remove one to save another.`, 'name') };
  }
  return { ok: true, status: result.kind === 'created' ? 201 : 200, view: result.view };
}

export const listViewsResponse = async (store: SavedViewStore, uid: string): Promise<Response> =>
  json({ data: (await store.listSavedViews(uid)).map(viewJson) }, { headers: { 'Cache-Control': 'private, no-store', Vary: 'Cookie' } });

export async function saveViewResponse(store: SavedViewStore, uid: string, input: unknown): Promise<Response> {
  const outcome = await saveView(store, uid, input);
  return outcome.ok ? json({ view: viewJson(outcome.view) }, outcome.status) : outcome.response;
}

export async function removeViewResponse(store: SavedViewStore, uid: string, id: string): Promise<Response> {
  return (await store.deleteSavedView(uid, id)) ? json({ ok: true }) : jsonError(404, 'not_found', 'You have no saved view with this id.', 'id');
}
