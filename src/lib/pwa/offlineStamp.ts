/**
 * The "prices as of …" stamp of a page or data answer served from the service worker's cache:
 * the time the kept copy was fetched, in India's time (the market's clock, as every date here).
 */
import { toDisplayDateTime } from '../dates.ts';

/** Set by the service worker on every copy it keeps: when it was fetched (ISO instant). */
export const FETCHED_AT_HEADER = 'X-PolyIndex-Fetched-At';

/** The placeholder element every full page carries (src/components/OfflineStamp.astro). */
export const STAMP_ATTRIBUTE = 'data-offline-stamp';

export const offlineStampText = (fetchedAt: Date): string => `Offline copy: prices as of ${toDisplayDateTime(fetchedAt)}`;

/** The fetch time a kept copy carries, or null when the header is missing or not a time. */
export function fetchedAtOf(header: string | null | undefined): Date | null {
  if (!header) return null;
  const time = Date.parse(header);
  return Number.isNaN(time) ? null : new Date(time);
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const PLACEHOLDER_RE = new RegExp(`<([a-z]+)\\b([^>]*\\s${STAMP_ATTRIBUTE}(?:=""|(?=[\\s>/]))[^>]*)>`, 'i');
const HIDDEN_RE = /\shidden(?:=""|="hidden")?(?=[\s/>]|$)/i;
const BODY_RE = /<body\b[^>]*>/i;

/**
 * A kept page's HTML with the stamp shown: the placeholder is filled and unhidden; a page without
 * one (a bare layout) gets a plain paragraph at the top of its body. Markup only, no script, so
 * the page's Content-Security-Policy is unaffected.
 */
export function withOfflineStamp(html: string, fetchedAt: Date): string {
  const text = escapeHtml(offlineStampText(fetchedAt));
  const when = escapeHtml(fetchedAt.toISOString());
  const placeholder = PLACEHOLDER_RE.exec(html);
  if (placeholder) {
    const [tag, , attributes] = placeholder;
    const shown = `<${placeholder[1]}${attributes!.replace(HIDDEN_RE, '')} data-fetched-at="${when}">${text}`;
    return html.slice(0, placeholder.index) + shown + html.slice(placeholder.index + tag.length);
  }
  const body = BODY_RE.exec(html);
  const paragraph = `<p class="offline-stamp" role="status" ${STAMP_ATTRIBUTE} data-fetched-at="${when}">${text}</p>`;
  if (!body) return paragraph + html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + paragraph + html.slice(at);
}
