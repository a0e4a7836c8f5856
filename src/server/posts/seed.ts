/**
 * The demo posts: the markdown under src/content/news/ (the `newsSeed` collection), imported
 * into the store on first start of an empty store (the embedded default) and by
 * `npm run seed`. Ids and slugs are the file names, so every URL the site had keeps working;
 * `premium` posts become `full` access. Seeding writes only posts that are not there, so it
 * never undoes the desk's edits and a second run changes nothing.
 */
import { z } from 'astro/zod';
import { newsTypes } from '../../lib/catalog.ts';
import { isoDateOf } from '../../lib/dates.ts';
import { resolveQuotes, templateLines } from '../../lib/newsQuotes.ts';
import type { PriceLine } from '../../lib/priceLines.ts';
import type { Post } from '../../lib/posts.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'dates are ISO YYYY-MM-DD');

/** The frontmatter of a seed post (checked at build time by the content collection, and by the seed script). */
export const seedPostSchema = z.object({
  title: z.string().min(5),
  type: z.enum(newsTypes),
  date: isoDate,
  summary: z.string().min(20),
  /** Premium posts show their summary publicly and their body only to entitled readers. */
  access: z.enum(['public', 'premium']).default('public'),
  author: z.string().default('PolyIndex Desk'),
  tags: z.array(z.string()).default([]),
});
export type SeedPostData = z.output<typeof seedPostSchema>;

/** A seed file's post: live from 00:00 IST of its date, as its page said. */
export function postOfSeed(id: string, data: SeedPostData, body: string): Post {
  const publishAt = new Date(`${data.date}T00:00:00+05:30`).toISOString();
  return {
    id,
    slug: id,
    oldSlugs: [],
    type: data.type,
    title: data.title,
    summary: data.summary,
    body: body.trim(),
    cover: null,
    access: data.access === 'premium' ? 'full' : 'public',
    status: 'published',
    publishAt,
    author: data.author,
    authorUid: null,
    tags: data.tags,
    createdAt: publishAt,
    updatedAt: publishAt,
    deletedAt: null,
  };
}

/** Ids are file names without folders (the collection's rule), so `/news/{id}` stays short and stable. */
export const seedIdOf = (path: string): string =>
  path
    .split('/')
    .at(-1)!
    .replace(/\.(md|mdx)$/, '');

/**
 * The seed posts with their price templates filled from the data as it stood on each post's
 * date (src/lib/newsQuotes.ts): title and summary in plain text, the body marked for the
 * consistency check. A post whose templates cannot all be filled (prices the store does not
 * hold) is left out and named in `skipped`, never written with a template showing.
 */
export function quotePosts(posts: readonly Post[], lines: readonly PriceLine[]): { posts: Post[]; skipped: string[] } {
  const byId = new Map(lines.map((l) => [l.id, l]));
  const lineOf = (id: string) => byId.get(id);
  const out: Post[] = [];
  const skipped: string[] = [];
  for (const post of posts) {
    const date = isoDateOf(new Date(post.publishAt ?? post.createdAt));
    const [title, summary, body] = [resolveQuotes(post.title, date, lineOf, false), resolveQuotes(post.summary, date, lineOf, false), resolveQuotes(post.body, date, lineOf, true)];
    const problems = [...title.problems, ...summary.problems, ...body.problems];
    if (problems.length > 0) skipped.push(`${post.id}: ${problems.join('; ')}`);
    else out.push({ ...post, title: title.text, summary: summary.text, body: body.text });
  }
  return { posts: out, skipped };
}

/** The line ids the posts' templates name. */
export const linesQuotedBy = (posts: readonly Post[]): Set<string> => templateLines(posts.flatMap((p) => [p.title, p.summary, p.body]));
