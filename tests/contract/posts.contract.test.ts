/**
 * The `posts` part of the Store port, on SQLite and on Firestore (the run's: Google's emulator
 * or the offline stand-in): writes with their audit entries, slugs (unique, old ones kept),
 * what readers see at a given time (drafts, schedules, unpublished and deleted posts), their
 * lists by type and month, search (gated bodies never), the desk's list, seeding and the
 * transfer of `npm run store:copy` from one backend to the other and back.
 */
import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/lib/posts.ts';
import type { Store } from '../../src/server/store/index.ts';
import { backends, storePerTest, attempt } from './backends.ts';

const actor = { uid: 'desk-1', email: 'Editor@PolyIndex.test' };
const T0 = new Date('2026-11-24T06:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
let serial = 0;

function post(over: Partial<Post> = {}): Post {
  serial++;
  const id = over.id ?? `p${serial}-${Math.random().toString(36).slice(2, 8)}`;
  return {
    id,
    slug: `2026-11-24-post-${id.toLowerCase()}`,
    oldSlugs: [],
    type: 'plant-news',
    title: `Post ${serial}`,
    summary: 'A summary of the post for the list.',
    body: 'The body says **polypropylene** in Mumbai.',
    cover: null,
    access: 'public',
    status: 'published',
    publishAt: at(-60).toISOString(),
    author: 'PolyIndex Desk',
    authorUid: 'desk-1',
    tags: ['PP'],
    createdAt: at(-120).toISOString(),
    updatedAt: at(-120).toISOString(),
    deletedAt: null,
    ...over,
  };
}

async function created(store: Store, p: Post): Promise<Post> {
  const result = await store.createPost({ post: p, actor, now: T0 });
  if (result.kind !== 'written') throw new Error(`not created: ${result.kind}`);
  return result.post;
}

const ids = (posts: readonly Post[]) => posts.map((p) => p.id);

for (const backend of backends) {
  describe(`posts on ${backend.name}`, () => {
    const store = storePerTest(backend);

    it('creates a post with its audit entry, and reads it by id and slug', async () => {
      const p = post({ publishAt: '2026-11-24T05:00:00+00:00' });
      const result = await store().createPost({ post: p, actor, now: T0 });
      expect(result.kind).toBe('written');
      if (result.kind !== 'written') return;
      // Instants are kept as ISO UTC with milliseconds, whatever form they came in.
      expect(result.post.publishAt).toBe('2026-11-24T05:00:00.000Z');
      expect(result.entry).toMatchObject({ action: 'post.create', target: `post:${p.id}`, before: null, actor: { uid: 'desk-1', email: 'editor@polyindex.test' } });
      expect(result.entry.after).toMatchObject({ id: p.id, title: p.title, body: p.body });
      expect(await store().getPost(p.id)).toEqual(result.post);
      expect(await store().findPostBySlug(p.slug)).toEqual({ post: result.post, current: true });
      expect(await store().findPostBySlug('no-such-slug')).toBeNull();
      expect(await store().getPost('no-such-id')).toBeNull();
      expect(await store().getPost('a/b')).toBeNull();
      expect((await store().listAudit({ target: `post:${p.id}` })).entries).toHaveLength(1);
    });

    it('refuses a slug another post holds, and a second post of the same id', async () => {
      const a = await created(store(), post());
      const clash = await store().createPost({ post: post({ slug: a.slug }), actor, now: T0 });
      expect(clash).toEqual({ kind: 'slug_taken', slug: a.slug });
      await expect(attempt(() => store().createPost({ post: post({ id: a.id, slug: 'another-slug' }), actor, now: T0 }))).rejects.toThrow();
      expect((await store().listPosts()).total).toBe(1);
    });

    it('refuses a malformed post before writing anything', async () => {
      for (const bad of [
        post({ slug: 'Not A Slug' }),
        post({ type: 'nonsense' as Post['type'] }),
        post({ title: '' }),
        post({ body: 'x'.repeat(50_001) }),
        post({ access: 'secret' as Post['access'] }),
        post({ status: 'live' as Post['status'] }),
        post({ status: 'scheduled', publishAt: null }),
        post({ publishAt: 'tomorrow' }),
        // Stored as +010000-… and -000001-…: text order (the stores' liveAt <= now) is not time order.
        post({ status: 'scheduled', publishAt: '9999-12-31T23:59-05:00' }),
        post({ status: 'scheduled', publishAt: '+010000-01-01T04:59:00.000Z' }),
        post({ publishAt: '-000001-01-01T00:00:00.000Z' }),
        post({ createdAt: '+010000-01-01T00:00:00.000Z' }),
        post({ id: 'a/b' }),
        post({ cover: { image: 'x', alt: 'a', width: 1, height: 1 } }),
        post({ oldSlugs: ['Bad Slug'] }),
      ]) {
        await expect(attempt(() => store().createPost({ post: bad, actor, now: T0 }))).rejects.toThrow(RangeError);
      }
      expect(await store().hasNoPosts()).toBe(true);
      expect((await store().listAudit()).total).toBe(0);
    });

    it('refuses a change to an instant past year 9999, and the post stays out of every live read', async () => {
      const p = await created(store(), post({ status: 'draft', publishAt: null }));
      const change = (publishAt: string) => store().updatePost({ id: p.id, action: 'post.schedule', actor, now: at(1), change: (c) => ({ ok: true, post: { ...c, status: 'scheduled', publishAt } }) });
      await expect(attempt(() => change('9999-12-31T23:59-05:00'))).rejects.toThrow(RangeError);
      await expect(attempt(() => store().seedPosts([post({ status: 'scheduled', publishAt: '+010000-01-01T04:59:00.000Z' })]))).rejects.toThrow(RangeError);
      expect((await store().getPost(p.id))?.status).toBe('draft');
      expect((await store().livePosts({}, at(2))).map((x) => x.id)).not.toContain(p.id);
      // The last instant of the window is still a schedule that is not live yet.
      expect((await change('2999-12-31T23:59:59.999Z')).kind).toBe('written');
      expect((await store().livePosts({}, at(2))).map((x) => x.id)).not.toContain(p.id);
    });

    it('updates in a transaction with a before/after entry; no change writes nothing', async () => {
      const p = await created(store(), post());
      const result = await store().updatePost({ id: p.id, action: 'post.update', actor, now: at(1), change: (c) => ({ ok: true, post: { ...c, title: 'A new title', updatedAt: at(1).toISOString() } }) });
      expect(result.kind).toBe('written');
      if (result.kind !== 'written') return;
      expect(result.entry).toMatchObject({ action: 'post.update', before: { title: p.title }, after: { title: 'A new title' } });
      expect((await store().getPost(p.id))?.title).toBe('A new title');

      const same = await store().updatePost({ id: p.id, action: 'post.update', actor, now: at(2), change: (c) => ({ ok: true, post: c }) });
      expect(same.kind).toBe('unchanged');
      const refused = await store().updatePost({ id: p.id, action: 'post.update', actor, now: at(2), change: () => ({ ok: false, reason: 'nope' }) });
      expect(refused).toEqual({ kind: 'refused', reason: 'nope' });
      expect(await store().updatePost({ id: 'missing', action: 'post.update', actor, now: at(2), change: (c) => ({ ok: true, post: c }) })).toEqual({ kind: 'not_found' });
      expect((await store().listAudit({ target: `post:${p.id}` })).total).toBe(2);
      // The id and creation time never move.
      await store().updatePost({ id: p.id, action: 'post.update', actor, now: at(3), change: (c) => ({ ok: true, post: { ...c, id: 'other', createdAt: at(9).toISOString(), summary: 'Changed summary text' } }) });
      expect(await store().getPost('other')).toBeNull();
      expect((await store().getPost(p.id))?.createdAt).toBe(p.createdAt);
    });

    it('keeps an old slug answering for its post after a slug change, and never gives it to another post', async () => {
      const p = await created(store(), post());
      const moved = await store().updatePost({ id: p.id, action: 'post.slug', actor, now: at(1), change: (c) => ({ ok: true, post: { ...c, slug: 'the-new-slug', oldSlugs: [c.slug] } }) });
      expect(moved.kind).toBe('written');
      expect(await store().findPostBySlug('the-new-slug')).toMatchObject({ current: true, post: { id: p.id } });
      expect(await store().findPostBySlug(p.slug)).toMatchObject({ current: false, post: { id: p.id, slug: 'the-new-slug' } });
      expect(await store().createPost({ post: post({ slug: p.slug }), actor, now: T0 })).toEqual({ kind: 'slug_taken', slug: p.slug });
      const other = await created(store(), post());
      expect(await store().updatePost({ id: other.id, action: 'post.slug', actor, now: at(2), change: (c) => ({ ok: true, post: { ...c, slug: 'the-new-slug', oldSlugs: [c.slug] } }) })).toEqual({ kind: 'slug_taken', slug: 'the-new-slug' });
      // Back to its first slug: allowed (it is its own).
      const back = await store().updatePost({ id: p.id, action: 'post.slug', actor, now: at(3), change: (c) => ({ ok: true, post: { ...c, slug: p.slug, oldSlugs: ['the-new-slug'] } }) });
      expect(back.kind).toBe('written');
      expect(await store().findPostBySlug('the-new-slug')).toMatchObject({ current: false, post: { slug: p.slug } });
    });

    it('shows readers live posts only, by the time of the read: a scheduled post appears at its time with nothing written', async () => {
      const live = await created(store(), post({ publishAt: at(-10).toISOString() }));
      const draft = await created(store(), post({ status: 'draft', publishAt: null }));
      const scheduled = await created(store(), post({ status: 'scheduled', publishAt: at(1).toISOString() }));
      const unpublished = await created(store(), post({ status: 'unpublished' }));
      const deleted = await created(store(), post({ deletedAt: at(-1).toISOString() }));
      expect(ids(await store().livePosts({}, T0))).toEqual([live.id]);
      expect(ids(await store().livePosts({}, at(1)))).toEqual([scheduled.id, live.id]);
      expect(ids(await store().searchLivePosts('polypropylene', T0))).toEqual([live.id]);
      expect(ids(await store().searchLivePosts('polypropylene', at(2)))).toEqual([scheduled.id, live.id]);
      for (const hidden of [draft, unpublished, deleted]) expect((await store().getPost(hidden.id))?.id).toBe(hidden.id);
      expect((await store().listPosts()).total).toBe(4);
      expect(ids((await store().listPosts({ deleted: true })).posts)).toEqual([deleted.id]);
    });

    it('lists live posts newest first, by type, year and month in India, a page at a time', async () => {
      const nov30 = await created(store(), post({ publishAt: '2026-11-30T18:29:59.000Z' })); // 23:59:59 IST, 30 Nov
      const dec1 = await created(store(), post({ publishAt: '2026-11-30T18:30:00.000Z' })); // 00:00 IST, 1 Dec
      const oct = await created(store(), post({ publishAt: '2026-10-05T06:00:00.000Z', type: 'buy-sell' }));
      const lastYear = await created(store(), post({ publishAt: '2025-12-31T18:29:00.000Z' })); // 31 Dec 2025 IST
      const later = new Date('2027-01-01T00:00:00Z');
      expect(ids(await store().livePosts({}, later))).toEqual([dec1.id, nov30.id, oct.id, lastYear.id]);
      expect(ids(await store().livePosts({ type: 'plant-news' }, later))).toEqual([dec1.id, nov30.id, lastYear.id]);
      expect(ids(await store().livePosts({ year: 2026, month: 11 }, later))).toEqual([nov30.id]);
      expect(ids(await store().livePosts({ year: 2026, month: 12 }, later))).toEqual([dec1.id]);
      expect(ids(await store().livePosts({ year: 2026 }, later))).toEqual([dec1.id, nov30.id, oct.id]);
      expect(ids(await store().livePosts({ year: 2025, type: 'plant-news' }, later))).toEqual([lastYear.id]);
      expect(ids(await store().livePosts({ type: 'buy-sell', year: 2026, month: 11 }, later))).toEqual([]);
      expect(ids(await store().livePosts({ limit: 2 }, later))).toEqual([dec1.id, nov30.id]);
      expect(ids(await store().livePosts({ limit: 2, offset: 2 }, later))).toEqual([oct.id, lastYear.id]);
      expect(ids(await store().livePosts({ limit: 2, offset: 4 }, later))).toEqual([]);
      expect((await store().liveTypes(later)).toSorted()).toEqual(['buy-sell', 'plant-news']);
      await created(store(), post({ type: 'daily-tweet', status: 'scheduled', publishAt: '2027-01-02T00:00:00.000Z' }));
      await created(store(), post({ type: 'blog', status: 'draft', publishAt: null }));
      expect((await store().liveTypes(later)).toSorted()).toEqual(['buy-sell', 'plant-news']);
      expect((await store().liveTypes(new Date('2027-01-03T00:00:00Z'))).toSorted()).toEqual(['buy-sell', 'daily-tweet', 'plant-news']);
    });

    it('searches titles, summaries and public bodies, never a gated body; every word must match', async () => {
      const open = await created(store(), post({ title: 'Reliance cuts PP prices', body: 'Raffia grades fell in Ahmedabad.' }));
      const gated = await created(store(), post({ title: 'PVC outlook', summary: 'Where PVC goes after Diwali.', body: 'Secretword for subscribers only.', access: 'full' }));
      const limited = await created(store(), post({ title: 'Buy lead', body: 'Limitedword inside.', access: 'limited', type: 'buy-sell' }));
      expect(ids(await store().searchLivePosts('reliance', T0))).toEqual([open.id]);
      expect(ids(await store().searchLivePosts('AHMEDABAD raffia', T0))).toEqual([open.id]);
      expect(ids(await store().searchLivePosts('ahmedabad pvc', T0))).toEqual([]);
      expect(ids(await store().searchLivePosts('diwali', T0))).toEqual([gated.id]);
      expect(ids(await store().searchLivePosts('secretword', T0))).toEqual([]);
      expect(ids(await store().searchLivePosts('limitedword', T0))).toEqual([]);
      expect(ids(await store().searchLivePosts('lead', T0))).toEqual([limited.id]);
      expect(ids(await store().searchLivePosts('   ', T0))).toEqual([]);
      expect(ids(await store().searchLivePosts('"; DROP TABLE posts; --', T0))).toEqual([]);
      expect(ids(await store().searchLivePosts('café', T0))).toEqual([]);
      // The desk's search sees everything, gated bodies included.
      expect(ids((await store().listPosts({ q: 'secretword' })).posts)).toEqual([gated.id]);
      expect(ids((await store().listPosts({ q: 'limitedword', type: 'buy-sell' })).posts)).toEqual([limited.id]);
      expect((await store().listPosts({ q: 'limitedword', type: 'plant-news' })).total).toBe(0);
      // A search reflects an edit at once.
      await store().updatePost({ id: open.id, action: 'post.update', actor, now: at(1), change: (c) => ({ ok: true, post: { ...c, body: 'Now about Kandla instead.' } }) });
      expect(ids(await store().searchLivePosts('ahmedabad', T0))).toEqual([]);
      expect(ids(await store().searchLivePosts('kandla', T0))).toEqual([open.id]);
    });

    it('lists the desk\'s posts by type and status, last updated first', async () => {
      const a = await created(store(), post({ status: 'draft', publishAt: null, updatedAt: at(-5).toISOString() }));
      const b = await created(store(), post({ type: 'buy-sell', updatedAt: at(-4).toISOString() }));
      const c = await created(store(), post({ status: 'scheduled', publishAt: at(30).toISOString(), updatedAt: at(-3).toISOString() }));
      expect(ids((await store().listPosts()).posts)).toEqual([c.id, b.id, a.id]);
      expect(ids((await store().listPosts({ status: 'draft' })).posts)).toEqual([a.id]);
      expect(ids((await store().listPosts({ type: 'buy-sell' })).posts)).toEqual([b.id]);
      expect(ids((await store().listPosts({ type: 'plant-news', status: 'scheduled' })).posts)).toEqual([c.id]);
      expect(ids((await store().listPosts({ month: { year: 2026, month: 11 } })).posts)).toEqual([c.id, b.id, a.id]);
      expect(ids((await store().listPosts({ month: { year: 2026, month: 10 } })).posts)).toEqual([]);
      const old = await created(store(), post({ publishAt: '2026-09-30T18:30:00.000Z', updatedAt: at(-10).toISOString() })); // 1 Oct IST
      expect(ids((await store().listPosts({ month: { year: 2026, month: 10 } })).posts)).toEqual([old.id]);
      expect(ids((await store().listPosts({ month: { year: 2026, month: 10 }, status: 'draft' })).posts)).toEqual([]);
      await store().updatePost({ id: old.id, action: 'post.delete', actor, now: at(1), change: (p) => ({ ok: true, post: { ...p, deletedAt: at(1).toISOString() } }) });
      const page = await store().listPosts({ limit: 2, offset: 1 });
      expect(page.total).toBe(3);
      expect(ids(page.posts)).toEqual([b.id, a.id]);
    });

    it('seeds posts once: a post already there (edited since) is left as it is', async () => {
      expect(await store().hasNoPosts()).toBe(true);
      const seed = [post({ id: 'seed-a', slug: 'seed-a', authorUid: null }), post({ id: 'seed-b', slug: 'seed-b', authorUid: null })];
      expect(await store().seedPosts(seed)).toBe(2);
      expect(await store().hasNoPosts()).toBe(false);
      await store().updatePost({ id: 'seed-a', action: 'post.update', actor, now: at(1), change: (c) => ({ ok: true, post: { ...c, title: 'Edited by the desk' } }) });
      expect(await store().seedPosts(seed)).toBe(0);
      expect((await store().getPost('seed-a'))?.title).toBe('Edited by the desk');
      expect(await store().findPostBySlug('seed-b')).toMatchObject({ current: true });
      expect(ids(await store().searchLivePosts('polypropylene', T0)).toSorted()).toEqual(['seed-a', 'seed-b']);
      // Seeding is not an admin change.
      expect((await store().listAudit({ target: 'post:seed-b' })).total).toBe(0);
    });

    it('exports posts for store:copy and imports them as they were, with slugs and search', async () => {
      const a = await created(store(), post({ access: 'full', cover: { image: '0b7c6a8e-7d2b-4d55-9f3e-0a3c2f7d9e11', alt: 'A cover', width: 1200, height: 630 } }));
      await store().updatePost({ id: a.id, action: 'post.slug', actor, now: at(1), change: (c) => ({ ok: true, post: { ...c, slug: 'moved-slug', oldSlugs: [c.slug] } }) });
      const b = await created(store(), post({ status: 'draft', publishAt: null }));
      const exported: Post[] = [];
      for await (const page of store().exportRecords('posts')) exported.push(...page);
      expect(exported.map((p) => p.id).toSorted()).toEqual([a.id, b.id].toSorted());

      for (const other of backends) {
        const target = await other.open();
        try {
          expect(await target.importRecords('posts', exported)).toBe(2);
          // A second import changes nothing.
          expect(await target.importRecords('posts', exported)).toBe(2);
          const back: Post[] = [];
          for await (const page of target.exportRecords('posts')) back.push(...page);
          expect(back.toSorted((x, y) => x.id.localeCompare(y.id))).toEqual(exported.toSorted((x, y) => x.id.localeCompare(y.id)));
          expect(await target.findPostBySlug(a.slug)).toMatchObject({ current: false, post: { id: a.id } });
          expect(await target.findPostBySlug('moved-slug')).toMatchObject({ current: true, post: { id: a.id } });
          expect(ids(await target.searchLivePosts('summary', T0))).toEqual([a.id]);
          // A record whose slug another post holds is refused whole.
          await expect(attempt(() => target.importRecords('posts', [post({ slug: 'moved-slug' })]))).rejects.toThrow(RangeError);
        } finally {
          await target.close();
        }
      }
    });
  });
}
