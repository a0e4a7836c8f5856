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
  /** A data table with a caption and column heads (e.g. prices); each row also has its plain-text line. */
  readonly table?: MailTable;
}

/** A cell: text, optionally toned (a rise green, a fall red) and kept on one line. */
export interface MailCell {
  readonly text: string;
  readonly tone?: 'up' | 'down' | 'flat' | undefined;
  /** Kept on one line (numbers); otherwise the cell may wrap (names). */
  readonly nowrap?: boolean;
}

/** A data table: column heads, then sections (a heading row, rows, and a link under them), so columns line up across sections. */
export interface MailTable {
  readonly columns: readonly string[];
  /** How the columns after the first align: right (figures, the default) or left (words). */
  readonly align?: 'left' | 'right';
  readonly sections: readonly MailTableSection[];
}

export interface MailTableSection {
  readonly caption: string;
  readonly rows: readonly { readonly cells: readonly MailCell[]; readonly text: string }[];
  readonly link?: { readonly text: string; readonly href: string } | undefined;
}

export interface MailContent {
  /** The language of the body (`lang` of the HTML); English unless said. */
  readonly lang?: string;
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
  if (block.table) parts.push(tableHtml(block.table));
  if (block.link) parts.push(`<p style="margin:0 0 12px"><a href="${escapeHtml(block.link.href)}" style="color:#0b2545">${escapeHtml(block.link.text)}</a></p>`);
  return parts.join('\n');
}

const TONE_COLOURS = { up: '#0a6e2c', down: '#b3261e', flat: '#444444' } as const;

/**
 * A table that fits a phone: full width, names wrap, numbers stay on their line, cells pad
 * little (390 CSS px holds four columns at 14 px). Each section is a heading row, its rows and a
 * link row. Inline styles, which every mail client keeps.
 */
function tableHtml(table: MailTable): string {
  const span = table.columns.length;
  const cell = (c: MailCell, index: number) => {
    const align = index === 0 ? 'left' : (table.align ?? 'right');
    const colour = c.tone ? `;color:${TONE_COLOURS[c.tone]}` : '';
    return `<td align="${align}" style="padding:6px 4px;border-top:1px solid #e3e6ea;vertical-align:top${c.nowrap ? ';white-space:nowrap' : ''}${colour}">${escapeHtml(c.text)}</td>`;
  };
  const head = table.columns.map((c, i) => `<th align="${i === 0 ? 'left' : (table.align ?? 'right')}" scope="col" style="padding:4px;font-size:12px;font-weight:normal;color:#555">${escapeHtml(c)}</th>`).join('');
  const sections = table.sections
    .map((section) => {
      const heading = `<tr><th colspan="${span}" scope="colgroup" align="left" style="padding:16px 4px 4px;font-size:15px;color:#0b2545;text-align:left">${escapeHtml(section.caption)}</th></tr>`;
      const rows = section.rows.map((r) => `<tr>${r.cells.map(cell).join('')}</tr>`).join('');
      const link = section.link ? `<tr><td colspan="${span}" style="padding:4px 4px 8px;border-top:1px solid #e3e6ea"><a href="${escapeHtml(section.link.href)}" style="color:#0b2545">${escapeHtml(section.link.text)}</a></td></tr>` : '';
      return `<tbody>${heading}${rows}${link}</tbody>`;
    })
    .join('');
  return `<table role="table" width="100%" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:collapse;margin:0 0 16px;font-size:14px"><thead><tr>${head}</tr></thead>${sections}</table>`;
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
  if (block.table) {
    parts.push(
      block.table.sections
        .map((section) => [section.caption.toUpperCase(), ...section.rows.map((r) => r.text), ...(section.link ? [`${section.link.text}: ${section.link.href}`] : [])].join('\n'))
        .join('\n\n'),
    );
  }
  if (block.link) parts.push(`${block.link.text}: ${block.link.href}`);
  return parts.join('\n\n');
}

/** Renders a mail into its subject, plain-text and HTML bodies. */
export function renderMail(content: MailContent): RenderedMail {
  const subject = oneLine(content.subject);
  const text = [content.heading, '', ...content.blocks.map(blockText).flatMap((b) => [b, '']), '-- ', `${BRAND}${content.footer ? `\n${content.footer}` : ''}`].join('\n');
  const html = [
    '<!doctype html>',
    `<html lang="${escapeHtml(content.lang ?? 'en')}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:16px;background:#ffffff;color:#1b1f24;font-family:Arial,Helvetica,\'Noto Sans\',\'Noto Sans Devanagari\',sans-serif;font-size:15px;line-height:1.5">',
    '<div style="max-width:640px;margin:0 auto">',
    `<p style="margin:0 0 16px;font-size:20px;color:#0b2545">Poly<strong style="color:#b3261e">Index</strong></p>`,
    `<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>`,
    ...content.blocks.map(blockHtml),
    content.footer ? `<p style="margin:24px 0 0;font-size:12px;color:#555">${htmlLines(content.footer)}</p>` : '',
    '</div></body></html>',
  ].join('\n');
  return { subject, text, html };
}
