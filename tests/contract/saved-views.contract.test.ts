/** The saved-views part of the Store port on both adapters: save, replace by name, the limit, list, delete, transfer. */
import { describe, expect, it } from 'vitest';
import { MAX_SAVED_VIEWS, savedViewId, type SavedView } from '../../src/server/store/savedViews.ts';
import { attempt, backends, storePerTest } from './backends.ts';

const NOW = new Date('2026-11-24T06:00:00.000Z');
const LATER = new Date('2026-11-25T07:30:00.000Z');
const QUERY = 's=feedstock.naphtha.japan,historical.ppRaffia.mumbai&range=5Y&unit=inr_kg';

describe.each(backends)('saved views on $name', (backend) => {
  const store = storePerTest(backend);

  it('saves a view, lists it, and a save under the same name (any case, any spacing) replaces it', async () => {
    const first = await store().saveView({ uid: 'u1', name: 'Naphtha vs PP', query: QUERY, now: NOW });
    const view: SavedView = { id: savedViewId('u1', 'Naphtha vs PP'), uid: 'u1', name: 'Naphtha vs PP', query: QUERY, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() };
    expect(first).toEqual({ kind: 'created', view });
    expect(await store().listSavedViews('u1')).toEqual([view]);
    const again = await store().saveView({ uid: 'u1', name: '  naphtha   VS pp ', query: 's=fx.usdinr', now: LATER });
    expect(again).toEqual({ kind: 'replaced', view: { ...view, name: 'naphtha VS pp', query: 's=fx.usdinr', updatedAt: LATER.toISOString() } });
    expect(await store().listSavedViews('u1')).toHaveLength(1);
  });

  it('lists a user\'s views by name, and only theirs', async () => {
    for (const name of ['crude', 'Brent and naphtha', 'apex']) await store().saveView({ uid: 'u1', name, query: QUERY, now: NOW });
    await store().saveView({ uid: 'u2', name: 'crude', query: 's=fx.usdinr', now: NOW });
    expect((await store().listSavedViews('u1')).map((v) => v.name)).toEqual(['apex', 'Brent and naphtha', 'crude']);
    expect((await store().listSavedViews('u2')).map((v) => [v.name, v.query])).toEqual([['crude', 's=fx.usdinr']]);
    expect(await store().listSavedViews('nobody')).toEqual([]);
  });

  it(`keeps at most ${MAX_SAVED_VIEWS} views per user; replacing one is still allowed`, async () => {
    for (let i = 0; i < MAX_SAVED_VIEWS; i++) expect((await store().saveView({ uid: 'u1', name: `view ${i}`, query: QUERY, now: NOW })).kind).toBe('created');
    expect(await store().saveView({ uid: 'u1', name: 'one more', query: QUERY, now: NOW })).toEqual({ kind: 'limit' });
    expect((await store().saveView({ uid: 'u1', name: 'VIEW 3', query: 's=fx.usdinr', now: LATER })).kind).toBe('replaced');
    expect((await store().saveView({ uid: 'u2', name: 'one more', query: QUERY, now: NOW })).kind).toBe('created');
    expect(await store().listSavedViews('u1')).toHaveLength(MAX_SAVED_VIEWS);
  });

  it('deletes only the owner\'s view', async () => {
    const saved = await store().saveView({ uid: 'u1', name: 'mine', query: QUERY, now: NOW });
    if (saved.kind === 'limit') throw new Error('limit');
    expect(await store().deleteSavedView('u2', saved.view.id)).toBe(false);
    expect(await store().deleteSavedView('u1', 'no-such-view')).toBe(false);
    expect(await store().deleteSavedView('u1', 'a/b')).toBe(false);
    expect(await store().deleteSavedView('u1', saved.view.id)).toBe(true);
    expect(await store().deleteSavedView('u1', saved.view.id)).toBe(false);
    expect(await store().listSavedViews('u1')).toEqual([]);
  });

  it('refuses a view without owner, name or query, writing nothing', async () => {
    await expect(attempt(() => store().saveView({ uid: '', name: 'x', query: QUERY, now: NOW }))).rejects.toThrow(/owner/);
    await expect(attempt(() => store().saveView({ uid: 'u1', name: '   ', query: QUERY, now: NOW }))).rejects.toThrow(/name/);
    await expect(attempt(() => store().saveView({ uid: 'u1', name: 'x', query: '', now: NOW }))).rejects.toThrow(/query/);
    expect(await store().listSavedViews('u1')).toEqual([]);
  });

  it('exports and imports views as they are (store:copy), idempotently', async () => {
    await store().saveView({ uid: 'u1', name: 'one', query: QUERY, now: NOW });
    await store().saveView({ uid: 'u2', name: 'two', query: 's=fx.usdinr', now: LATER });
    const exported: SavedView[] = [];
    for await (const page of store().exportRecords('savedViews')) exported.push(...page);
    expect(exported.map((v) => v.name).toSorted()).toEqual(['one', 'two']);

    const target = await backend.open();
    try {
      expect(await target.importRecords('savedViews', exported)).toBe(2);
      expect(await target.importRecords('savedViews', exported)).toBe(2);
      expect(await target.listSavedViews('u1')).toEqual(await store().listSavedViews('u1'));
      expect(await target.listSavedViews('u2')).toEqual(await store().listSavedViews('u2'));
      // The imported view is found again by its name.
      expect((await target.saveView({ uid: 'u1', name: 'ONE', query: 's=fx.usdinr', now: LATER })).kind).toBe('replaced');
      await expect(attempt(() => target.importRecords('savedViews', [{ ...exported[0]!, uid: '' }]))).rejects.toThrow();
    } finally {
      await target.close();
    }
  });
});
