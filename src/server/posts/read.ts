/**
 * Pages read posts here, through the live collection `posts` (src/live.config.ts): live posts
 * only, at the time of the request. A store failure is thrown (the request fails as any other
 * store outage does); a post that is not live is simply not found.
 */
import { getLiveCollection, getLiveEntry } from 'astro:content';
import type { PostCollectionFilter, PostEntry } from './live.ts';

export type { PostEntry, PostEntryData } from './live.ts';

export async function livePostEntries(filter: PostCollectionFilter = {}): Promise<PostEntry[]> {
  const result = await getLiveCollection('posts', filter);
  if (result.error) throw result.error;
  return result.entries as PostEntry[];
}

/** A live post by a current or old slug (compare `entry.data.slug` to redirect an old one); null when none is live. */
export async function livePostBySlug(slug: string): Promise<PostEntry | null> {
  const result = await getLiveEntry('posts', { slug });
  if (result.error) {
    if (result.error.name === 'LiveEntryNotFoundError') return null;
    throw result.error;
  }
  return (result.entry as PostEntry | undefined) ?? null;
}
