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
