/**
 * Text for an XML document. XML 1.0 allows only tab, line feed and carriage return of the C0
 * controls, no U+FFFE/U+FFFF and no lone surrogate, not even escaped (`&#1;` is an error too): one
 * such character in a post's title made the whole feed unreadable for every reader. Every XML
 * writer (the RSS feed, the sitemaps) passes its text through `xmlText` (or `escapeXml`).
 */

// C0 controls but \t \n \r, DEL is allowed; U+FFFE, U+FFFF; a lone surrogate (the `u` flag reads pairs whole).
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\p{Surrogate}/gu;

/** `text` without the characters XML 1.0 cannot carry. */
export const xmlText = (text: string): string => text.replace(NOT_XML, '');

/** `text` as XML character data or an attribute value: the characters XML cannot carry dropped, markup escaped. */
export const escapeXml = (text: string): string =>
  xmlText(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
