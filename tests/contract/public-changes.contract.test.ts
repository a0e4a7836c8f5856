/**
 * The public-change marker (src/server/store/publicChanges.ts) on both adapters: every write
 * public pages show (posts created, edited, seeded; banners added, moved, removed, replaced)
 * tells this handle's listeners at once and records a new token another handle of the same
 * database reads (the page cache's bound across instances, src/server/pageCache/cache.ts);
 * reads and other writes leave it alone; the marker is one record of the registry's kind.
 */
import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/lib/posts.ts';
import type { Banner } from '../../src/server/store/prices.ts';
import { backends, storePerTest, twinTest, withTwins } from './backends.ts';

const actor = { uid: 'desk-1', email: 'editor@polyindex.test' };
const NOW = new Date('2026-11-24T06:00:00.000Z');

const post = (id: string): Post => ({
  id,
  slug: `2026-11-24-${id}`,
  oldSlugs: [],
  type: 'plant-news',
  title: `Post ${id}`,
  summary: 'A summary of the post for the list.',
  body: 'The body.',
  cover: null,
  access: 'public',
  status: 'published',
  publishAt: '2026-11-24T05:00:00.000Z',
  author: 'PolyIndex Desk',
  authorUid: 'desk-1',
  tags: [],
  createdAt: '2026-11-24T04:00:00.000Z',
  updatedAt: '2026-11-24T04:00:00.000Z',
  deletedAt: null,
});
const banner = (id: string, order: number): Banner => ({ id, title: `Title ${id}`, subtitle: `Sub ${id}`, href: `/${id}`, image: `/banners/${id}.svg`, alt: `alt ${id}`, order });

describe.each(backends)('public changes on $name', (backend) => {
  const store = storePerTest(backend);

  it('marks every write public pages show, tells its listeners at once, and leaves reads alone', async () => {
    const db = store();
    expect(await db.publicChangeToken()).toBeNull();
    let told = 0;
    const stop = db.onPublicChange(() => told++);
    const tokens: (string | null)[] = [];
    const writes: [string, () => Promise<unknown>][] = [
      ['createPost', () => db.createPost({ post: post('a'), actor, now: NOW })],
      ['updatePost', () => db.updatePost({ id: 'a', action: 'post.update', actor, now: NOW, change: (p) => ({ ok: true, post: { ...p, title: 'Edited' } }) })],
      ['seedPosts', () => db.seedPosts([post('b')])],
      ['replaceBanners', () => db.replaceBanners([banner('x', 1)])],
      ['adminAddBanner', () => db.adminAddBanner({ banner: { id: 'y', title: 'Y', subtitle: 'S', href: '/y', image: '/banners/y.svg', alt: 'y' }, actor, now: NOW })],
      ['adminMoveBanner', () => db.adminMoveBanner({ id: 'y', direction: 'up', actor, now: NOW })],
      ['adminRemoveBanner', () => db.adminRemoveBanner({ id: 'y', actor, now: NOW })],
    ];
    for (const [name, write] of writes) {
      const before = told;
      await write();
      expect(told, name).toBe(before + 1);
      const token = await db.publicChangeToken();
      expect(token, name).not.toBeNull();
      expect(tokens, name).not.toContain(token);
      tokens.push(token);
    }
    // Reads, and writes no cached page shows, leave the marker as it is.
    await db.listPosts();
    await db.listBanners();
    await db.saveView({ uid: 'u1', name: 'mine', query: 's=fx.usdinr', now: NOW });
    expect(told).toBe(writes.length);
    expect(await db.publicChangeToken()).toBe(tokens.at(-1));
    stop();
    await db.createPost({ post: post('c'), actor, now: NOW });
    expect(told).toBe(writes.length);
    // One record of the registry's kind, whatever the number of changes.
    const marker = [];
    for await (const batch of db.exportRecords('publicChanges')) marker.push(...batch);
    expect(marker).toHaveLength(1);
    expect(marker[0]).toMatchObject({ id: 'public-pages', token: await db.publicChangeToken() });
  });

  twinTest(backend)('another handle of the same database reads the change (another instance)', async () => {
    await withTwins(backend, async (a, b) => {
      let toldB = 0;
      b.onPublicChange(() => toldB++);
      const before = await b.publicChangeToken();
      await a.createPost({ post: post('twin'), actor, now: NOW });
      const after = await b.publicChangeToken();
      expect(after).not.toBeNull();
      expect(after).not.toBe(before);
      expect(await a.publicChangeToken()).toBe(after);
      // Listeners are this handle's: the other learns by reading the token.
      expect(toldB).toBe(0);
    });
  });
});
