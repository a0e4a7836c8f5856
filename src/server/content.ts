/** Reads the markdown collections for pages and endpoints, in the orders screens list them. */
import { getCollection, type CollectionEntry } from 'astro:content';
import type { NewsType } from '../lib/catalog.ts';
import { inMonth, newestFirst } from '../lib/posts.ts';

export type NewsPost = CollectionEntry<'news'>;
export type Delegation = CollectionEntry<'vipDelegations'>;

export async function postsOfType(type: NewsType): Promise<NewsPost[]> {
  return newestFirst(await getCollection('news', (post) => post.data.type === type));
}

export async function postsOfTypeInMonth(type: NewsType, year: number, month: number): Promise<NewsPost[]> {
  return (await postsOfType(type)).filter((post) => inMonth(post.data.date, year, month));
}

export async function latestPosts(limit: number): Promise<NewsPost[]> {
  return newestFirst(await getCollection('news')).slice(0, limit);
}

export async function delegationsOfYear(year: number): Promise<Delegation[]> {
  return (await getCollection('vipDelegations', (d) => d.data.year === year)).toSorted((a, b) =>
    a.data.startDate.localeCompare(b.data.startDate),
  );
}

export async function findDelegation(year: number, event: string): Promise<Delegation | undefined> {
  return (await delegationsOfYear(year)).find((d) => d.data.event === event);
}
