/** The readable side of the audit log: which fields an admin write changed, old → new. */

export interface FieldChange {
  readonly field: string;
  /** undefined when the field did not exist. */
  readonly before: unknown;
  readonly after: unknown;
}

type Fields = Readonly<Record<string, unknown>> | null | undefined;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields that differ between two JSON objects, by name. A missing field and `null` are the
 * same (merges write `null` for "no value"); nested values compare by their JSON.
 */
export function diffFields(before: Fields, after: Fields): FieldChange[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...names]
    .sort()
    .filter((name) => !same(before?.[name], after?.[name]))
    .map((name) => ({ field: name, before: before?.[name], after: after?.[name] }));
}

/** One value as an admin reads it: `—` for nothing, strings as they are, the rest as JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

const ACTION_LABELS: Readonly<Record<string, string>> = {
  'user.role': 'Set the role',
  'citywise.add': 'Added a city price',
  'citywise.change': 'Changed a city price',
  'citywise.delete': 'Removed a city price',
  'offers.add': 'Added international offers',
  'offers.change': 'Changed international offers',
  'user.grant': 'Granted a plan',
  'user.extend': 'Extended a plan',
  'user.revoke': 'Revoked a plan',
  'price.add': 'Added a price',
  'price.change': 'Changed a price',
  'price.delete': 'Deleted a price',
  'price.import': 'Imported prices (CSV)',
  'banner.add': 'Added a banner',
  'banner.move': 'Moved a banner',
  'banner.remove': 'Removed a banner',
  'post.create': 'Created a post',
  'post.update': 'Edited a post',
  'post.publish': 'Published a post',
  'post.schedule': 'Scheduled a post',
  'post.unpublish': 'Unpublished a post',
  'post.draft': 'Made a post a draft',
  'post.slug': 'Changed a post\'s address',
  'post.cover': 'Changed a post\'s cover',
  'post.delete': 'Deleted a post',
  'post.restore': 'Restored a post',
  'forecast.publish': 'Published a forecast',
};

/** "Granted a plan" for `user.grant`; unknown actions read as they are. */
export const actionLabel = (action: string): string => ACTION_LABELS[action] ?? action;

/** Where an admin can look at an audit target (`user:{uid}` → its user page); null when nowhere. */
export function targetHref(target: string): string | null {
  const user = /^user:(.+)$/.exec(target);
  if (user) return `/admin/users/${encodeURIComponent(user[1]!)}`;
  const series = /^series:(.+)$/.exec(target);
  if (series) return `/admin/prices?series=${encodeURIComponent(series[1]!)}`;
  if (target.startsWith('banner:')) return '/admin/banners';
  const post = /^post:(.+)$/.exec(target);
  if (post) return `/admin/posts/${encodeURIComponent(post[1]!)}`;
  if (target.startsWith('forecast:')) return '/admin/forecasts';
  return null;
}

/** A human name for an entry's target: the e-mail (or phone) its record had. */
export function targetLabel(entry: { readonly before: Fields; readonly after: Fields }): string | null {
  for (const key of ['email', 'phone', 'title'] as const) {
    const value = entry.after?.[key] ?? entry.before?.[key];
    if (typeof value === 'string' && value) return value;
  }
  return null;
}
