/**
 * SQLite adapter of the posts (see ../posts.ts).
 *
 * - `posts`: one row per post; `live_at` is liveAtOf(post) (null unless published or
 *   scheduled and not deleted), so "live at now" is `live_at <= now`, compared at read time.
 * - `post_slugs`: every slug a post answers to (current and old), unique across posts.
 * - `post_search` / `post_desk_search`: FTS5 tables over the search tokens of
 *   src/lib/posts.ts (readers: title, summary, public bodies; the desk: everything), stored as
 *   space-separated tokens with FTS5's `ascii` tokenizer, so FTS5 splits exactly where the
 *   shared tokenizer did and SQLite finds what the Firestore token index finds.
 *
 * Also the posts part of `npm run store:copy` (`exportPosts` / `importPosts`).
 */
import type { Client, InValue, Row, Transaction } from '@libsql/client';
import type { NewsType } from '../../../lib/catalog.ts';
import { deskTextOf, liveAtOf, monthRange, queryTokens, searchTextOf, searchTokens, yearRange, type Post, type PostCover } from '../../../lib/posts.ts';
import {
  checkPost,
  normalizedPost,
  pageOf,
  postAuditEntry,
  samePost,
  slugsOf,
  type LivePostQuery,
  type PostListQuery,
  type PostStore,
  type PostWriteResult,
} from '../posts.ts';
import { insertAuditEntry } from './audit.ts';
import { inTransaction, type Migration } from './database.ts';

export const postMigrations: readonly Migration[] = [
  {
    id: 'posts-001',
    statements: [
      `CREATE TABLE posts (
         id TEXT PRIMARY KEY,
         slug TEXT NOT NULL UNIQUE,
         old_slugs TEXT NOT NULL CHECK (json_valid(old_slugs)),
         type TEXT NOT NULL,
         title TEXT NOT NULL,
         summary TEXT NOT NULL,
         body TEXT NOT NULL,
         cover TEXT CHECK (cover IS NULL OR json_valid(cover)),
         access TEXT NOT NULL,
         status TEXT NOT NULL,
         publish_at TEXT,
         live_at TEXT,
         author TEXT NOT NULL,
         author_uid TEXT,
         tags TEXT NOT NULL CHECK (json_valid(tags)),
         created_at TEXT NOT NULL,
         updated_at TEXT NOT NULL,
         deleted_at TEXT
       )`,
      'CREATE INDEX posts_live ON posts (live_at) WHERE live_at IS NOT NULL',
      'CREATE INDEX posts_type_live ON posts (type, live_at) WHERE live_at IS NOT NULL',
      'CREATE INDEX posts_updated ON posts (updated_at)',
      'CREATE TABLE post_slugs (slug TEXT PRIMARY KEY, post_id TEXT NOT NULL REFERENCES posts (id))',
      'CREATE INDEX post_slugs_post ON post_slugs (post_id)',
      "CREATE VIRTUAL TABLE post_search USING fts5 (post_id UNINDEXED, tokens, tokenize = 'ascii')",
      "CREATE VIRTUAL TABLE post_desk_search USING fts5 (post_id UNINDEXED, tokens, tokenize = 'ascii')",
    ],
  },
];

const COLUMNS = 'id, slug, old_slugs, type, title, summary, body, cover, access, status, publish_at, live_at, author, author_uid, tags, created_at, updated_at, deleted_at';
const UPSERT = `INSERT INTO posts (${COLUMNS}) VALUES (${COLUMNS.split(',').map(() => '?').join(', ')})
  ON CONFLICT (id) DO UPDATE SET ${COLUMNS.split(', ')
    .filter((c) => c !== 'id')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function postOf(row: Row): Post {
  return {
    id: String(row['id']),
    slug: String(row['slug']),
    oldSlugs: JSON.parse(String(row['old_slugs'])) as string[],
    type: String(row['type']) as NewsType,
    title: String(row['title']),
    summary: String(row['summary']),
    body: String(row['body']),
    cover: row['cover'] === null ? null : (JSON.parse(String(row['cover'])) as PostCover),
    access: String(row['access']) as Post['access'],
    status: String(row['status']) as Post['status'],
    publishAt: text(row['publish_at']),
    author: String(row['author']),
    authorUid: text(row['author_uid']),
    tags: JSON.parse(String(row['tags'])) as string[],
    createdAt: String(row['created_at']),
    updatedAt: String(row['updated_at']),
    deletedAt: text(row['deleted_at']),
  };
}

const argsOf = (post: Post): InValue[] => [
  post.id,
  post.slug,
  JSON.stringify(post.oldSlugs),
  post.type,
  post.title,
  post.summary,
  post.body,
  post.cover ? JSON.stringify(post.cover) : null,
  post.access,
  post.status,
  post.publishAt,
  liveAtOf(post),
  post.author,
  post.authorUid,
  JSON.stringify(post.tags),
  post.createdAt,
  post.updatedAt,
  post.deletedAt,
];

/** `"a" "b"`: every token, each a phrase of one token (implicit AND). */
const matchOf = (tokens: readonly string[]): string => tokens.map((t) => `"${t.replaceAll('"', '""')}"`).join(' ');

/** Writes the post, its slugs and its search rows inside `tx` (the slugs must be free or its own). */
async function writePost(tx: Transaction, post: Post): Promise<void> {
  await tx.execute({ sql: UPSERT, args: argsOf(post) });
  for (const slug of slugsOf(post)) await tx.execute({ sql: 'INSERT INTO post_slugs (slug, post_id) VALUES (?, ?) ON CONFLICT (slug) DO NOTHING', args: [slug, post.id] });
  for (const table of ['post_search', 'post_desk_search']) await tx.execute({ sql: `DELETE FROM ${table} WHERE post_id = ?`, args: [post.id] });
  await tx.execute({ sql: 'INSERT INTO post_search (post_id, tokens) VALUES (?, ?)', args: [post.id, searchTokens(searchTextOf(post)).join(' ')] });
  await tx.execute({ sql: 'INSERT INTO post_desk_search (post_id, tokens) VALUES (?, ?)', args: [post.id, searchTokens(deskTextOf(post)).join(' ')] });
}

/** The first slug of `post` held by another post, or null. */
async function takenSlug(tx: Transaction | Client, post: Post): Promise<string | null> {
  for (const slug of slugsOf(post)) {
    const owner = (await tx.execute({ sql: 'SELECT post_id FROM post_slugs WHERE slug = ?', args: [slug] })).rows[0];
    if (owner && String(owner['post_id']) !== post.id) return slug;
  }
  return null;
}

export function createSqlitePostStore(client: Client): PostStore {
  return {
    async createPost({ post: input, actor, now }) {
      const post = normalizedPost(input);
      checkPost(post);
      return inTransaction(client, async (tx): Promise<PostWriteResult> => {
        if ((await tx.execute({ sql: 'SELECT 1 FROM posts WHERE id = ?', args: [post.id] })).rows.length > 0) throw new Error(`UNIQUE constraint failed: posts.id ${JSON.stringify(post.id)}`);
        const taken = await takenSlug(tx, post);
        if (taken) return { kind: 'slug_taken', slug: taken };
        await writePost(tx, post);
        const entry = await insertAuditEntry(tx, postAuditEntry.create(post, actor, now));
        return { kind: 'written', post, entry };
      });
    },

    async updatePost({ id, change, actor, action, now }) {
      return inTransaction(client, async (tx) => {
        const row = (await tx.execute({ sql: 'SELECT * FROM posts WHERE id = ?', args: [id] })).rows[0];
        if (!row) return { kind: 'not_found' as const };
        const before = postOf(row);
        const outcome = change(before);
        if (!outcome.ok) return { kind: 'refused' as const, reason: outcome.reason };
        const after = normalizedPost({ ...outcome.post, id: before.id, createdAt: before.createdAt });
        if (samePost(before, after)) return { kind: 'unchanged' as const, post: before };
        checkPost(after);
        const taken = await takenSlug(tx, after);
        if (taken) return { kind: 'slug_taken' as const, slug: taken };
        await writePost(tx, after);
        const entry = await insertAuditEntry(tx, postAuditEntry.update(action, before, after, actor, now));
        return { kind: 'written' as const, post: after, entry };
      });
    },

    async getPost(id) {
      const row = (await client.execute({ sql: 'SELECT * FROM posts WHERE id = ?', args: [id] })).rows[0];
      return row ? postOf(row) : null;
    },

    async findPostBySlug(slug) {
      const row = (await client.execute({ sql: 'SELECT p.* FROM post_slugs s JOIN posts p ON p.id = s.post_id WHERE s.slug = ?', args: [slug] })).rows[0];
      if (!row) return null;
      const post = postOf(row);
      return { post, current: post.slug === slug };
    },

    async listPosts(query: PostListQuery = {}) {
      const { limit, offset } = pageOf(query);
      const where: string[] = [query.deleted ? 'p.deleted_at IS NOT NULL' : 'p.deleted_at IS NULL'];
      const args: InValue[] = [];
      if (query.type) {
        where.push('p.type = ?');
        args.push(query.type);
      }
      if (query.status) {
        where.push('p.status = ?');
        args.push(query.status);
      }
      if (query.month) {
        const range = monthRange(query.month.year, query.month.month);
        where.push('COALESCE(p.publish_at, p.created_at) >= ?', 'COALESCE(p.publish_at, p.created_at) < ?');
        args.push(range.from, range.to);
      }
      let from = 'posts p';
      const tokens = query.q === undefined ? [] : queryTokens(query.q);
      if (query.q !== undefined && query.q.trim() !== '') {
        if (tokens.length === 0) return { posts: [], total: 0 };
        from = 'posts p JOIN post_desk_search s ON s.post_id = p.id';
        where.push('post_desk_search MATCH ?');
        args.push(matchOf(tokens));
      }
      const clause = where.join(' AND ');
      const total = Number((await client.execute({ sql: `SELECT count(*) AS n FROM ${from} WHERE ${clause}`, args })).rows[0]!['n']);
      const rows = (await client.execute({ sql: `SELECT p.* FROM ${from} WHERE ${clause} ORDER BY p.updated_at DESC, p.id DESC LIMIT ? OFFSET ?`, args: [...args, limit, offset] })).rows;
      return { posts: rows.map(postOf), total };
    },

    async livePosts(query: LivePostQuery, now) {
      const { limit, offset } = pageOf(query);
      const where = ['live_at IS NOT NULL', 'live_at <= ?'];
      const args: InValue[] = [now.toISOString()];
      if (query.type) {
        where.push('type = ?');
        args.push(query.type);
      }
      if (query.year !== undefined) {
        const range = query.month !== undefined ? monthRange(query.year, query.month) : yearRange(query.year);
        where.push('live_at >= ?', 'live_at < ?');
        args.push(range.from, range.to);
      }
      const rows = (await client.execute({ sql: `SELECT * FROM posts WHERE ${where.join(' AND ')} ORDER BY live_at DESC, id DESC LIMIT ? OFFSET ?`, args: [...args, limit, offset] })).rows;
      return rows.map(postOf);
    },

    async searchLivePosts(query, now, limit = 50) {
      const tokens = queryTokens(query);
      if (tokens.length === 0) return [];
      const rows = (
        await client.execute({
          sql: `SELECT p.* FROM post_search s JOIN posts p ON p.id = s.post_id
                WHERE post_search MATCH ? AND p.live_at IS NOT NULL AND p.live_at <= ?
                ORDER BY p.live_at DESC, p.id DESC LIMIT ?`,
          args: [matchOf(tokens), now.toISOString(), pageOf({ limit }).limit],
        })
      ).rows;
      return rows.map(postOf);
    },

    async liveTypes(now) {
      const rows = (await client.execute({ sql: 'SELECT DISTINCT type FROM posts WHERE live_at IS NOT NULL AND live_at <= ?', args: [now.toISOString()] })).rows;
      return rows.map((row) => String(row['type']) as NewsType);
    },

    async hasNoPosts() {
      return (await client.execute('SELECT 1 FROM posts LIMIT 1')).rows.length === 0;
    },

    async seedPosts(input) {
      const posts = input.map(normalizedPost);
      for (const post of posts) checkPost(post);
      return inTransaction(client, async (tx) => {
        let written = 0;
        for (const post of posts) {
          if ((await tx.execute({ sql: 'SELECT 1 FROM posts WHERE id = ?', args: [post.id] })).rows.length > 0) continue;
          if (await takenSlug(tx, post)) continue;
          await writePost(tx, post);
          written++;
        }
        return written;
      });
    },
  };
}

/** Posts per exported page (bodies up to 50,000 characters each). */
export const POST_EXPORT_PAGE = 200;

/** Every post as a transfer record (the Post itself), in id order, a page at a time. */
export async function* exportPosts(client: Client, pageSize: number = POST_EXPORT_PAGE): AsyncIterable<readonly Post[]> {
  let after = '';
  for (;;) {
    const rows = (await client.execute({ sql: 'SELECT * FROM posts WHERE id > ? ORDER BY id LIMIT ?', args: [after, pageSize] })).rows;
    if (rows.length === 0) return;
    after = String(rows[rows.length - 1]!['id']);
    yield rows.map(postOf);
    if (rows.length < pageSize) return;
  }
}

/**
 * Writes transfer records in one transaction (upserts by id, with their slugs and search rows),
 * after checking all of them: a bad record or a slug held by another post is a RangeError and
 * nothing is written.
 */
export async function importPosts(client: Client, records: readonly Post[]): Promise<number> {
  const posts = records.map(normalizedPost);
  for (const post of posts) checkPost(post);
  if (posts.length === 0) return 0;
  await inTransaction(client, async (tx) => {
    for (const post of posts) {
      const taken = await takenSlug(tx, post);
      if (taken) throw new RangeError(`post ${JSON.stringify(post.id)}: slug ${JSON.stringify(taken)} belongs to another post`);
      await writePost(tx, post);
    }
  });
  return posts.length;
}
