/** The admin forms' JSON bodies, pure: a form's text fields, empty ones left out ("not given"). */

export function formBody(entries: Iterable<readonly [string, unknown]>): Record<string, string> {
  const body: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (typeof value !== 'string') continue;
    const text = value.trim();
    if (text !== '') body[name] = text;
  }
  return body;
}

/** Names an object must never take from a form (they would reach the prototype). */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A form's body with each field that names a path (`data-path='["data","PP","Raffia","low"]'`)
 * set at that path instead of under its name, so a table of inputs is sent as one nested JSON
 * body (a country's offers: `{data: {group: {grade: {low, high}}}}`). Fields left empty are not
 * in `fields` (formBody), so they are not set; a path through an unsafe name is ignored.
 */
export function nestedBody(fields: Readonly<Record<string, string>>, paths: Iterable<readonly [name: string, path: readonly string[]]>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...fields };
  for (const [name, path] of paths) {
    if (!(name in fields)) continue;
    delete body[name];
    if (path.length === 0 || path.some((key) => UNSAFE_KEYS.has(key))) continue;
    let node = body;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      node = (node[key] = typeof next === 'object' && next !== null ? next : {}) as Record<string, unknown>;
    }
    node[path.at(-1)!] = fields[name];
  }
  return body;
}

/** The notice shown after a successful change, by the `done` query the form script adds. */
export const DONE_NOTICES: Readonly<Record<string, string>> = {
  role: 'Role saved.',
  grant: 'Plan granted.',
  extend: 'Plan extended.',
  revoke: 'Plan revoked.',
  price: 'Price saved.',
  deleted: 'Point deleted.',
  banner: 'Banner added.',
  forecast: 'Forecast published. It is never edited: to change it, publish a correction.',
  moved: 'Banner moved.',
  removed: 'Banner removed.',
  city: 'City price saved.',
  offers: 'Offers saved.',
  'list-price': 'List price saved.',
  'post-created': 'Post created.',
  'post-saved': 'Post saved.',
  'post-published': 'Post published: it is live.',
  'post-scheduled': 'Post scheduled.',
  'post-unpublished': 'Post unpublished: readers no longer see it.',
  'post-deleted': 'Post deleted.',
  'post-restored': 'Post restored (as it was).',
  'post-cover': 'Cover saved.',
};
