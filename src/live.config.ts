/**
 * Live content collections: read at request time, never at build time. `posts` are the
 * newsroom's posts from the Store (src/server/posts/live.ts), so publishing needs no rebuild.
 */
import { defineLiveCollection } from 'astro:content';
import { postsLoader } from './server/posts/live.ts';

// The store is imported when first used: runtime.ts seeds through astro:content, which loads
// this file, so a static import here would be an import cycle that never settles.
const posts = defineLiveCollection({ loader: postsLoader({ store: async () => (await import('./server/runtime.ts')).store() }) });

export const collections = { posts };
