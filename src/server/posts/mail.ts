/**
 * A post as a mail (the editor's test mail today; the daily updates may link or carry posts
 * later): subject, summary, the body through the one renderer (sanitised: no script, handler or
 * script URL reaches a mail client) with its links and images made absolute, a link to the
 * article. A gated post's mail is its summary and a link only, as its public page is (issue 12):
 * the mail goes to whoever a job names, who may not be a reader of the post. No astro:* import:
 * any mail job can use it.
 */
import { articleUrl, type Post } from '../../lib/posts.ts';
import { renderMail, type RenderedMail } from '../mail/templates.ts';
import { plainTextOf, renderPostHtml, withAbsoluteUrls } from './render.ts';

export function postMail(post: Pick<Post, 'slug' | 'title' | 'summary' | 'body' | 'access'>, site: URL): RenderedMail {
  const url = articleUrl(post, site);
  const open = post.access === 'public';
  const html = open ? withAbsoluteUrls(renderPostHtml(post.body), new URL(url)) : null;
  return renderMail({
    subject: `PolyIndex: ${post.title}`,
    heading: post.title,
    blocks: [
      { paragraph: post.summary },
      ...(html ? [{ article: { html, text: plainTextOf(html) } }] : []),
      { link: { text: open ? 'Read it on PolyIndex' : 'Read the full post on PolyIndex', href: url } },
    ],
    footer: 'You received this post from PolyIndex.',
  });
}
