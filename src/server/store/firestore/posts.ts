/**
 * Firestore adapter of the posts (see ../posts.ts):
 *
 *   posts/{id}        the Post's fields, plus `liveAt` (liveAtOf(post): null unless published
 *                     or scheduled and not deleted), `deleted` (boolean), `searchTokens` (the
 *                     readers' token index: title, summary, public bodies) and `deskTokens`
 *                     (the desk's: everything)
 *   postSlugs/{slug}  { slug, postId }: every slug a post answers to, current and old
 *
 * Readers' lists are `liveAt <= now` (plus `type ==`, plus a month's or year's range of
 * `liveAt`) ordered by `liveAt` descending: the time of the read decides, so a scheduled post
 * appears at its time on every instance. Search is `searchTokens array-contains` the longest
 * query token (Firestore allows one array-contains per query) among live posts, newest first,
 * at most SEARCH_CANDIDATES documents, then every other token is checked in memory. The desk's
 * list is equality filters sorted in memory (the desk's posts are few; no composite index per
 * filter combination).
 *
 * Writes are transactions: the audit entry's create() first (the guard; see database.ts), then
 * the post document (whole, the same fields every time) and a create() per new slug. Also the
 * posts part of `npm run store:copy`.
 */
import type { DocumentData, Firestore, Query, Transaction } from 'firebase-admin/firestore';
import { deskTextOf, liveAtOf, matchesAllTokens, monthRange, queryTokens, searchTextOf, searchTokens, yearRange, type Post, type PostCover } from '../../../lib/posts.ts';
import type { NewsType } from '../../../lib/catalog.ts';
import {
  checkPost,
  normalizedPost,
  pageOf,
  postAuditEntry,
  samePost,
  SEARCH_CANDIDATES,
  slugsOf,
  type LivePostQuery,
  type PostListQuery,
  type PostStore,
  type PostWriteResult,
} from '../posts.ts';
import { auditWriterIn } from './audit.ts';
import { DOCS_PER_COMMIT, docId, queued, transact, usableId } from './database.ts';

export const POSTS = 'posts';
export const POST_SLUGS = 'postSlugs';

export const postDocOf = (post: Post): Record<string, unknown> => ({
  id: post.id,
  slug: post.slug,
  oldSlugs: [...post.oldSlugs],
  type: post.type,
  title: post.title,
  summary: post.summary,
  body: post.body,
  cover: post.cover ? { ...post.cover } : null,
  access: post.access,
  status: post.status,
  publishAt: post.publishAt,
  liveAt: liveAtOf(post),
  deleted: post.deletedAt !== null,
  author: post.author,
  authorUid: post.authorUid,
  tags: [...post.tags],
  createdAt: post.createdAt,
  updatedAt: post.updatedAt,
  deletedAt: post.deletedAt,
  searchTokens: searchTokens(searchTextOf(post)),
  deskTokens: searchTokens(deskTextOf(post)),
});

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function postOfDoc(data: DocumentData): Post {
  const cover = data['cover'] as PostCover | null | undefined;
  return {
    id: String(data['id']),
    slug: String(data['slug']),
    oldSlugs: Array.isArray(data['oldSlugs']) ? (data['oldSlugs'] as unknown[]).map(String) : [],
    type: String(data['type']) as NewsType,
    title: String(data['title']),
    summary: String(data['summary'] ?? ''),
    body: String(data['body'] ?? ''),
    cover: cover ? { image: String(cover.image), alt: String(cover.alt), width: Number(cover.width), height: Number(cover.height) } : null,
    access: String(data['access']) as Post['access'],
    status: String(data['status']) as Post['status'],
    publishAt: textOrNull(data['publishAt']),
    author: String(data['author'] ?? ''),
    authorUid: textOrNull(data['authorUid']),
    tags: Array.isArray(data['tags']) ? (data['tags'] as unknown[]).map(String) : [],
    createdAt: String(data['createdAt']),
    updatedAt: String(data['updatedAt']),
    deletedAt: textOrNull(data['deletedAt']),
  };
}

/** The longest token: the rarest, as a rule, so the fewest candidates. */
const longest = (tokens: readonly string[]): string => tokens.reduce((a, b) => (b.length > a.length ? b : a));

const byUpdatedDesc = (a: Post, b: Post): number => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The first slug of `post` held by another post (read inside `tx`), or null; and the slugs still to create. */
async function slugsIn(db: Firestore, tx: Transaction, post: Post): Promise<{ taken: string | null; missing: string[] }> {
  const slugs = slugsOf(post);
  const docs = await tx.getAll(...slugs.map((slug) => db.collection(POST_SLUGS).doc(docId(slug))));
  const missing: string[] = [];
  for (const [index, doc] of docs.entries()) {
    if (!doc.exists) missing.push(slugs[index]!);
    else if (String(doc.get('postId')) !== post.id) return { taken: slugs[index]!, missing: [] };
  }
  return { taken: null, missing };
}

export function createFirestorePostStore(db: Firestore): PostStore {
  const posts = db.collection(POSTS);

  return {
    async createPost({ post: input, actor, now }) {
      const post = normalizedPost(input);
      checkPost(post);
      return transact(db, async (tx): Promise<PostWriteResult> => {
        const write = await auditWriterIn(db, tx);
        const ref = posts.doc(docId(post.id));
        if ((await tx.get(ref)).exists) throw new Error(`UNIQUE constraint failed: posts.id ${JSON.stringify(post.id)}`);
        const { taken, missing } = await slugsIn(db, tx, post);
        if (taken) return { kind: 'slug_taken', slug: taken };
        const entry = write(postAuditEntry.create(post, actor, now));
        tx.create(ref, postDocOf(post));
        for (const slug of missing) tx.create(db.collection(POST_SLUGS).doc(docId(slug)), { slug, postId: post.id });
        return { kind: 'written', post, entry };
      });
    },

    async updatePost({ id, change, actor, action, now }) {
      if (!usableId(id)) return { kind: 'not_found' };
      return transact(db, async (tx) => {
        const write = await auditWriterIn(db, tx);
        const ref = posts.doc(id);
        const snapshot = await tx.get(ref);
        if (!snapshot.exists) return { kind: 'not_found' as const };
        const before = postOfDoc(snapshot.data()!);
        const outcome = change(before);
        if (!outcome.ok) return { kind: 'refused' as const, reason: outcome.reason };
        const after = normalizedPost({ ...outcome.post, id: before.id, createdAt: before.createdAt });
        if (samePost(before, after)) return { kind: 'unchanged' as const, post: before };
        checkPost(after);
        const { taken, missing } = await slugsIn(db, tx, after);
        if (taken) return { kind: 'slug_taken' as const, slug: taken };
        const entry = write(postAuditEntry.update(action, before, after, actor, now));
        tx.set(ref, postDocOf(after));
        for (const slug of missing) tx.create(db.collection(POST_SLUGS).doc(docId(slug)), { slug, postId: after.id });
        return { kind: 'written' as const, post: after, entry };
      });
    },

    async getPost(id) {
      if (!usableId(id)) return null;
      const doc = await posts.doc(id).get();
      return doc.exists ? postOfDoc(doc.data()!) : null;
    },

    async findPostBySlug(slug) {
      if (!usableId(slug)) return null;
      const link = await db.collection(POST_SLUGS).doc(slug).get();
      if (!link.exists) return null;
      const postId = String(link.get('postId'));
      if (!usableId(postId)) return null;
      const doc = await posts.doc(postId).get();
      if (!doc.exists) return null;
      const post = postOfDoc(doc.data()!);
      return { post, current: post.slug === slug };
    },

    async listPosts(query: PostListQuery = {}) {
      const { limit, offset } = pageOf(query);
      const deleted = Boolean(query.deleted);
      let found: Post[];
      if (query.q !== undefined && query.q.trim() !== '') {
        const tokens = queryTokens(query.q);
        if (tokens.length === 0) return { posts: [], total: 0 };
        const snapshot = await posts.where('deskTokens', 'array-contains', longest(tokens)).get();
        found = snapshot.docs
          .filter((doc) => matchesAllTokens(doc.get('deskTokens') as string[], tokens))
          .map((doc) => postOfDoc(doc.data()))
          .filter((p) => (p.deletedAt !== null) === deleted && (!query.type || p.type === query.type) && (!query.status || p.status === query.status));
      } else {
        let filtered: Query = posts.where('deleted', '==', deleted);
        if (query.type) filtered = filtered.where('type', '==', query.type);
        if (query.status) filtered = filtered.where('status', '==', query.status);
        found = (await filtered.get()).docs.map((doc) => postOfDoc(doc.data()));
      }
      if (query.month) {
        const range = monthRange(query.month.year, query.month.month);
        found = found.filter((p) => {
          const at = p.publishAt ?? p.createdAt;
          return at >= range.from && at < range.to;
        });
      }
      found.sort(byUpdatedDesc);
      return { posts: found.slice(offset, offset + limit), total: found.length };
    },

    async livePosts(query: LivePostQuery, now) {
      const { limit, offset } = pageOf(query);
      let filtered: Query = posts;
      if (query.type) filtered = filtered.where('type', '==', query.type);
      filtered = filtered.where('liveAt', '<=', now.toISOString());
      if (query.year !== undefined) {
        const range = query.month !== undefined ? monthRange(query.year, query.month) : yearRange(query.year);
        filtered = filtered.where('liveAt', '>=', range.from).where('liveAt', '<', range.to);
      }
      // No offsets on every Firestore we run against: read to the page's end, drop the start.
      const snapshot = await filtered.orderBy('liveAt', 'desc').orderBy('id', 'desc').limit(offset + limit).get();
      return snapshot.docs.slice(offset).map((doc) => postOfDoc(doc.data()));
    },

    async searchLivePosts(query, now, limit = 50) {
      const tokens = queryTokens(query);
      if (tokens.length === 0) return [];
      const snapshot = await posts
        .where('searchTokens', 'array-contains', longest(tokens))
        .where('liveAt', '<=', now.toISOString())
        .orderBy('liveAt', 'desc')
        .orderBy('id', 'desc')
        .limit(SEARCH_CANDIDATES)
        .get();
      return snapshot.docs
        .filter((doc) => matchesAllTokens(doc.get('searchTokens') as string[], tokens))
        .slice(0, pageOf({ limit }).limit)
        .map((doc) => postOfDoc(doc.data()));
    },

    async liveTypes(now) {
      // Only the type field of each live post is read (a field mask): no distinct in Firestore.
      const snapshot = await posts.where('liveAt', '<=', now.toISOString()).select('type').get();
      return [...new Set(snapshot.docs.map((doc) => String(doc.get('type')) as NewsType))];
    },

    async hasNoPosts() {
      return (await posts.limit(1).get()).empty;
    },

    async seedPosts(input) {
      const all = input.map(normalizedPost);
      for (const post of all) checkPost(post);
      if (all.length === 0) return 0;
      return queued(db, async () => {
        const existing = await db.getAll(...all.map((p) => posts.doc(docId(p.id))));
        const slugDocs = await db.getAll(...all.flatMap((p) => slugsOf(p).map((s) => db.collection(POST_SLUGS).doc(docId(s)))));
        const heldSlugs = new Set(slugDocs.filter((d) => d.exists).map((d) => d.id));
        const fresh = all.filter((p, index) => !existing[index]!.exists && !slugsOf(p).some((s) => heldSlugs.has(s)));
        await writeInCommits(db, fresh);
        return fresh.length;
      });
    },
  };
}

/** Writes posts with their slug documents, a post and its slugs always in the same commit (≤ DOCS_PER_COMMIT writes). */
async function writeInCommits(db: Firestore, all: readonly Post[]): Promise<void> {
  let batch = db.batch();
  let writes = 0;
  for (const post of all) {
    const cost = 1 + slugsOf(post).length;
    if (writes > 0 && writes + cost > DOCS_PER_COMMIT) {
      await batch.commit();
      batch = db.batch();
      writes = 0;
    }
    batch.set(db.collection(POSTS).doc(post.id), postDocOf(post));
    for (const slug of slugsOf(post)) batch.set(db.collection(POST_SLUGS).doc(slug), { slug, postId: post.id });
    writes += cost;
  }
  if (writes > 0) await batch.commit();
}

/** Posts per exported page. */
export const POST_EXPORT_PAGE = 200;

/** Every post as a transfer record, in id order (`where id > last`: no cursors), a page at a time. */
export async function* exportPosts(db: Firestore, pageSize: number = POST_EXPORT_PAGE): AsyncIterable<readonly Post[]> {
  let after = '';
  for (;;) {
    const snapshot = await db.collection(POSTS).where('id', '>', after).orderBy('id').limit(pageSize).get();
    if (snapshot.empty) return;
    const page = snapshot.docs.map((doc) => postOfDoc(doc.data()));
    after = page[page.length - 1]!.id;
    yield page;
    if (page.length < pageSize) return;
  }
}

/**
 * Writes transfer records (upserts by id, with their slug documents) after checking all of them:
 * a bad record, or a slug another post holds, is a RangeError and nothing is written. Commits
 * of at most DOCS_PER_COMMIT documents; a re-run completes a copy cut short.
 */
export async function importPosts(db: Firestore, records: readonly Post[]): Promise<number> {
  const all = records.map(normalizedPost);
  for (const post of all) checkPost(post);
  if (all.length === 0) return 0;
  return queued(db, async () => {
    const refs = all.flatMap((p) => slugsOf(p).map((slug) => ({ slug, postId: p.id, ref: db.collection(POST_SLUGS).doc(docId(slug)) })));
    const docs = await db.getAll(...refs.map((r) => r.ref));
    for (const [index, doc] of docs.entries()) {
      if (doc.exists && String(doc.get('postId')) !== refs[index]!.postId) throw new RangeError(`post ${JSON.stringify(refs[index]!.postId)}: slug ${JSON.stringify(refs[index]!.slug)} belongs to another post`);
    }
    await writeInCommits(db, all);
    return all.length;
  });
}
