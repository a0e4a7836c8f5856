import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { newestFirst } from '../lib/posts.ts';
import { articlePath, isPremium, newsTypeLabel } from '../server/news.ts';

export const prerender = true;

/** The 50 newest posts. Public posts carry their full text; premium posts their summary only. */
export const GET: APIRoute = async ({ site, url }) => {
  const posts = newestFirst(await getCollection('news')).slice(0, 50);
  return rss({
    title: 'PolyIndex news',
    description: 'Polymer and petrochemical market news for Indian buyers and traders: buy/sell leads, plant news, rate revisions and outlooks.',
    site: site ?? url.origin,
    // Links end with a slash, as the sitemap and the canonical links spell them.
    trailingSlash: true,
    items: posts.map((post) => ({
      title: post.data.title,
      link: articlePath(post),
      pubDate: new Date(`${post.data.date}T00:00:00+05:30`),
      description: post.data.summary,
      categories: [newsTypeLabel(post.data.type), ...(isPremium(post) ? ['Premium'] : [])],
      ...(isPremium(post) ? {} : { content: post.rendered?.html ?? '' }),
    })),
    customData: '<language>en-IN</language>',
  });
};
