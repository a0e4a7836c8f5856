/**
 * A post as a mail (the editor's test mail today; the daily updates may link or carry posts
 * later): subject, summary, the body through the one renderer (sanitised: no script, handler or
 * script URL reaches a mail client), a link to the article. A gated post carries its first
 * paragraph only, as its public page does. No astro:* import: any mail job can use it.
 */
import { articleUrl, type Post } from '../../lib/posts.ts';
import { renderMail, type RenderedMail } from '../mail/templates.ts';
import { plainTextOf, renderPostHtml, teaserOf } from './render.ts';

export function postMail(post: Pick<Post, 'slug' | 'title' | 'summary' | 'body' | 'access'>, site: URL): RenderedMail {
  const url = articleUrl(post, site);
  const html = renderPostHtml(post.body);
  const shown = post.access === 'public' ? html : teaserOf(html);
  return renderMail({
    subject: `PolyIndex: ${post.title}`,
    heading: post.title,
    blocks: [
      { paragraph: post.summary },
      { article: { html: shown, text: plainTextOf(shown) } },
      { link: { text: post.access === 'public' ? 'Read it on PolyIndex' : 'Read the full post on PolyIndex', href: url } },
    ],
    footer: 'You received this post from PolyIndex.',
  });
}
