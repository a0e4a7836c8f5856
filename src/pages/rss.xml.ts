import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { accessBadge, articlePath } from '../lib/posts.ts';
import { xmlText } from '../lib/xml.ts';
import { PUBLIC_PAGE_CACHE, isGated, newsTypeLabel } from '../server/news.ts';
import { livePostEntries } from '../server/posts/read.ts';

export const prerender = false;

/**
 * The 50 newest live posts, rendered on demand (cached a minute by shared caches). Public posts
 * carry their full text (the one renderer's sanitised HTML); gated posts their summary only.
 * Every text goes through `xmlText`: a control character in a post must not break the feed.
 */
export const GET: APIRoute = async ({ site, url }) => {
  const posts = await livePostEntries({ limit: 50, html: true });
  const response = await rss({
    title: 'PolyIndex news',
    description: 'Polymer and petrochemical market news for Indian buyers and traders: buy/sell leads, plant news, rate revisions and outlooks.',
    site: site ?? url.origin,
    // Links end with a slash, as the sitemap and the canonical links spell them.
    trailingSlash: true,
    items: posts.map(({ data: post, rendered }) => {
      const badge = accessBadge(post.access);
      return {
        title: xmlText(post.title),
        link: articlePath(post),
        pubDate: new Date(post.publishAt ?? `${post.date}T00:00:00+05:30`),
        description: xmlText(post.summary),
        categories: [newsTypeLabel(post.type), ...(badge ? [badge] : [])],
        ...(isGated(post) ? {} : { content: xmlText(rendered?.html ?? '') }),
      };
    }),
    customData: '<language>en-IN</language>',
  });
  response.headers.set('Cache-Control', PUBLIC_PAGE_CACHE);
  return response;
};
