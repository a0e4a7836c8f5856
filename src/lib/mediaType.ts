/**
 * Media types of request bodies. A JSON endpoint reads only a body its client declared as JSON:
 * a form post (`application/x-www-form-urlencoded`, `multipart/form-data`, `text/plain`) is
 * what a cross-site HTML form can send without a preflight, so such a body is refused before
 * it is parsed, whatever it contains.
 */

/** The bare type of a Content-Type header, lower-cased, without parameters; '' when absent. */
export function mediaTypeOf(header: string | null | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** `application/json` or a structured `+json` type (`application/merge-patch+json`), any parameters. */
export function isJsonMediaType(header: string | null | undefined): boolean {
  const type = mediaTypeOf(header);
  return type === 'application/json' || /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(type);
}
