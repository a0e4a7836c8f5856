/**
 * `?next=` after sign-in: only a path on this site. Anything that could leave the origin
 * (`//evil.test`, `/\evil.test`, `https://…`, `javascript:`) falls back to the default.
 */
export function safeNextPath(next: string | null | undefined, fallback = '/'): string {
  if (!next || next.length > 2048) return fallback;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  // Control characters (tabs, newlines) are stripped by URL parsers and can smuggle a host in.
  if ([...next].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return fallback;
  try {
    const base = 'http://polyindex.invalid';
    const url = new URL(next, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
