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

/**
 * A live post by a current or old slug (compare `entry.data.slug` to redirect an old one); null
 * when none is live. A gated post comes without its body unless `fullText` (the full-text page,
 * after its own access check).
 */
export async function livePostBySlug(slug: string, { fullText = false }: { readonly fullText?: boolean } = {}): Promise<PostEntry | null> {
  const result = await getLiveEntry('posts', fullText ? { slug, fullText } : { slug });
  if (result.error) {
    if (result.error.name === 'LiveEntryNotFoundError') return null;
    throw result.error;
  }
  return (result.entry as PostEntry | undefined) ?? null;
}
