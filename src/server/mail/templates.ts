/**
 * Plain templates for every mail the site sends: one layout, an HTML and a plain-text body.
 * Everything that came from a person is escaped here (HTML) or left as text (plain part);
 * no template concatenates raw input into markup. The one exception is a post's body, which
 * arrives as SanitizedHtml from the post renderer (src/server/posts/render.ts) and only so.
 */
import type { SanitizedHtml } from '../posts/render.ts';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Subjects are one line: control characters and line breaks become spaces (no header injection). */
export function oneLine(value: string, max = 200): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

export interface MailBlock {
  /** A paragraph of text (may contain line breaks, kept in both bodies). */
  readonly paragraph?: string;
  /** A label/value table, e.g. the fields of an enquiry. */
  readonly rows?: readonly (readonly [label: string, value: string])[];
  /** A quoted block of someone's own words. */
  readonly quote?: string;
  /** A post's rendered body (only the post renderer makes SanitizedHtml) and its plain text. */
  readonly article?: { readonly html: SanitizedHtml; readonly text: string };
  /** A link on its own line (an absolute URL of ours). */
  readonly link?: { readonly text: string; readonly href: string };
}

export interface MailContent {
  readonly subject: string;
  readonly heading: string;
  readonly blocks: readonly MailBlock[];
  /** A line under the content, e.g. why the reader got this mail. */
  readonly footer?: string;
}

export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

const BRAND = 'PolyIndex';
const htmlLines = (text: string): string => escapeHtml(text).replace(/\r?\n/g, '<br>');

function blockHtml(block: MailBlock): string {
  const parts: string[] = [];
  if (block.paragraph !== undefined) parts.push(`<p style="margin:0 0 12px">${htmlLines(block.paragraph)}</p>`);
  if (block.rows && block.rows.length > 0) {
    const rows = block.rows
      .map(
        ([label, value]) =>
          `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top;color:#444">${escapeHtml(label)}</th>` +
          `<td style="padding:4px 0">${htmlLines(value)}</td></tr>`,
      )
      .join('');
    parts.push(`<table role="presentation" style="border-collapse:collapse;margin:0 0 12px">${rows}</table>`);
  }
  if (block.quote !== undefined) {
    parts.push(`<blockquote style="margin:0 0 12px;padding:8px 12px;border-left:3px solid #0b2545;background:#f4f6f9">${htmlLines(block.quote)}</blockquote>`);
  }
  if (block.article !== undefined) parts.push(`<div style="margin:0 0 12px">${block.article.html}</div>`);
  if (block.link) parts.push(`<p style="margin:0 0 12px"><a href="${escapeHtml(block.link.href)}" style="color:#0b2545">${escapeHtml(block.link.text)}</a></p>`);
  return parts.join('\n');
}

function blockText(block: MailBlock): string {
  const parts: string[] = [];
  if (block.paragraph !== undefined) parts.push(block.paragraph);
  if (block.rows && block.rows.length > 0) {
    const width = Math.max(...block.rows.map(([label]) => label.length));
    parts.push(block.rows.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value.replace(/\r?\n/g, `\n${' '.repeat(width + 2)}`)}`).join('\n'));
  }
  if (block.quote !== undefined) parts.push(block.quote.split(/\r?\n/).map((line) => `> ${line}`).join('\n'));
  if (block.article !== undefined) parts.push(block.article.text);
  if (block.link) parts.push(`${block.link.text}: ${block.link.href}`);
  return parts.join('\n\n');
}

/** Renders a mail into its subject, plain-text and HTML bodies. */
export function renderMail(content: MailContent): RenderedMail {
  const subject = oneLine(content.subject);
  const text = [content.heading, '', ...content.blocks.map(blockText).flatMap((b) => [b, '']), '-- ', `${BRAND}${content.footer ? `\n${content.footer}` : ''}`].join('\n');
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#ffffff;color:#1b1f24;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5">',
    `<p style="margin:0 0 16px;font-size:20px;color:#0b2545">Poly<strong style="color:#b3261e">Index</strong></p>`,
    `<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>`,
    ...content.blocks.map(blockHtml),
    content.footer ? `<p style="margin:24px 0 0;font-size:12px;color:#555">${htmlLines(content.footer)}</p>` : '',
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
