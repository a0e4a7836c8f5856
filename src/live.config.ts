/**
 * Live content collections: read at request time, never at build time. `posts` are the
 * newsroom's posts from the Store (src/server/posts/live.ts), so publishing needs no rebuild.
 */
import { defineLiveCollection } from 'astro:content';
import { postsLoader } from './server/posts/live.ts';
import { store } from './server/runtime.ts';

const posts = defineLiveCollection({ loader: postsLoader({ store }) });

export const collections = { posts };
