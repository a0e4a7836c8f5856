/**
 * The one renderer of post bodies: markdown → HTML with `marked`, then an allow-list sanitiser
 * (`sanitize-html`), so nothing a post's author types (or an attacker who took over an admin
 * account) runs in a reader's browser or mail client: no `<script>`, no event-handler attribute,
 * no `javascript:`/`data:` URL, no frame, form, style or foreign image survives. Pages, the RSS
 * feed, the editor's preview and every mail that carries a post use this module and nothing
 * else. No astro:* import (mail jobs and the fast lane can use it).
 */
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/** HTML that came out of the sanitiser (only this module makes it). */
export type SanitizedHtml = string & { readonly __sanitized: true };

const marked = new Marked({ gfm: true, breaks: false, async: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'hr', 'br',
    'strong', 'em', 'b', 'i', 'del', 's', 'sub', 'sup', 'code', 'pre', 'a', 'img',
    'table', 'thead', 'tbody', 'tr', 'th', 'td', 'caption',
    // A quoted price and the data it quotes (src/lib/newsQuotes.ts).
    'data',
  ],
  allowedAttributes: {
    // rel: set below on links to other sites.
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
    ol: ['start'],
    code: ['class'],
    data: ['value'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  // Links: the web and mail only. Relative links (a path on this site) carry no scheme and stay.
  allowedSchemes: ['http', 'https', 'mailto'],
  // Images: paths on this site only (no third-party origin, no tracking pixel, no data: URL).
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // The page's own <h1> is the title: a heading 1 in the body becomes a heading 2.
  transformTags: {
    h1: 'h2',
    a: (tagName, attribs) => {
      const href = attribs['href'] ?? '';
      // Links to other sites open nothing of ours to them.
      const external = /^(https?:)?\/\//i.test(href);
      return { tagName, attribs: external ? { ...attribs, rel: 'noopener noreferrer nofollow' } : attribs };
    },
  },
};

/** Markdown → sanitised HTML. */
export function renderPostHtml(markdown: string): SanitizedHtml {
  const raw = marked.parse(markdown) as string;
  return sanitizeHtml(raw, SANITIZE) as SanitizedHtml;
}

/**
 * Sanitised HTML with every link and image made absolute against `base` (a mail's article URL):
 * a mail client has no site to resolve `/news/images/…` against. A second pass over the
 * sanitiser's output, with the same allow-list, where images may be absolute on this site only.
 */
export function withAbsoluteUrls(html: SanitizedHtml, base: URL): SanitizedHtml {
  /** Scheme-ful values (https:, mailto:) stay; the rest is a path on this site; null: not a URL (dropped). */
  const absolute = (value: string): string | null => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return value;
    try {
      return new URL(value, base).href;
    } catch {
      return null;
    }
  };
  const resolve = (attribute: 'href' | 'src'): sanitizeHtml.Transformer => (tagName, attribs) => {
    const out: sanitizeHtml.Attributes = {};
    for (const [name, value] of Object.entries(attribs)) {
      const resolved = name === attribute ? absolute(value) : value;
      if (resolved !== null) out[name] = resolved;
    }
    return { tagName, attribs: out };
  };
  return sanitizeHtml(html, {
    ...SANITIZE,
    transformTags: { a: resolve('href'), img: resolve('src') },
    // The first pass kept site paths only; made absolute, they are https on the site's origin.
    allowedSchemesByTag: { img: ['http', 'https'] },
    exclusiveFilter: (frame) => frame.tag === 'img' && !(frame.attribs['src'] ?? '').startsWith(base.origin + '/'),
  }) as SanitizedHtml;
}

/** Rendered HTML as plain text (mail text parts, descriptions): tags dropped, entities decoded. */
export function plainTextOf(html: SanitizedHtml): string {
  const withBreaks = html
    .replace(/>\s*\n\s*</g, '><')
    .replace(/<\/(p|h[2-6]|blockquote|pre|table|ul|ol)>/g, '$&\n\n')
    .replace(/<\/(li|tr)>/g, '$&\n')
    .replace(/<br\s*\/?>/g, '\n');
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} });
  return decodeEntities(text).replace(/\n{3,}/g, '\n\n').trim();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}
