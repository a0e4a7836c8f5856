/**
 * The newsroom's endpoints (editors and administrators; src/server/admin/guard.ts):
 *
 *   GET    /api/admin/posts?type&status&month&q&deleted&page   the desk's list
 *   POST   /api/admin/posts                              {type, title, summary?, body, access?, status?, publishAt?, slug?, tags?, author?} → 201 {id, slug, url}
 *   GET    /api/admin/posts/{id}                         one post, any state
 *   PATCH  /api/admin/posts/{id}                         any of those fields, cover: null, restore: true
 *   DELETE /api/admin/posts/{id}                         soft delete
 *   POST   /api/admin/posts/{id}/cover                   multipart: image, alt (./postCover.ts)
 *   POST   /api/admin/posts/preview                      {body} → {html}: the site's own renderer
 *   POST   /api/admin/posts/{id}/test-mail               the post as a mail to the editor's own address
 *
 * Bad input is a 400 naming the field; every change is one store transaction with its audit
 * entry (before and after, so the log shows a diff).
 */
import { randomUUID } from 'node:crypto';
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import { newsTypes } from '../../lib/catalog.ts';
import { formatCount } from '../../lib/numbers.ts';
import {
  articlePath,
  EARLIEST_POST_INSTANT,
  instantFromIndianTime,
  isPostInstant,
  isSlug,
  LATEST_POST_INSTANT,
  MAX_BODY,
  MAX_SUMMARY,
  MAX_TAGS,
  MAX_TITLE,
  newPostSlug,
  postAccesses,
  postStatuses,
  publishAtFor,
  type Post,
  type PostStatus,
} from '../../lib/posts.ts';
import { json, jsonError, parseOr400, readJson } from '../http/responses.ts';
import { renderPostHtml } from '../posts/render.ts';
import { store } from '../runtime.ts';
import { MAX_OLD_SLUGS, samePost, type PostWriteResult } from '../store/posts.ts';
import { requireEditor } from './guard.ts';

/** A post's JSON body: 50,000 characters of markdown may take three bytes each, plus the other fields. */
export const MAX_POST_BODY_BYTES = 256 * 1024;

/** Paths that are pages of their own under /news/, never a post's slug. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(['search', 'images', 'type', 'page', 'full', 'rss', 'feed']);

const text = (label: string, max: number, min = 0) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .min(min, min === 1 ? `${label} is required.` : `${label} needs at least ${min} characters.`)
    .max(max, `${label} is too long (${formatCount(max)} characters at most).`);

/** An instant: ISO with a zone, or India's wall-clock time from the editor's field (`2026-11-24T15:30`). */
const instant = z
  .string({ error: 'The publish time must be a date and time.' })
  .trim()
  .transform((value, ctx) => {
    const local = instantFromIndianTime(value);
    const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null;
    const at = local ?? zoned;
    if (at === null) {
      ctx.addIssue({ code: 'custom', message: 'The publish time must be a date and time (YYYY-MM-DDTHH:MM, India time).' });
      return z.NEVER;
    }
    // The stores' window (isPostInstant): "9999-12-31T23:59-05:00" is in year 10000.
    if (!isPostInstant(at)) {
      ctx.addIssue({ code: 'custom', message: `The publish time must be in the years ${EARLIEST_POST_INSTANT.slice(0, 4)}–${LATEST_POST_INSTANT.slice(0, 4)}.` });
      return z.NEVER;
    }
    return at;
  });

const slug = z
  .string({ error: 'The slug must be text.' })
  .trim()
  .toLowerCase()
  .refine(isSlug, 'The slug may hold lower-case letters, digits and single hyphens (100 characters at most).')
  .refine((s) => !RESERVED_SLUGS.has(s), 'That slug names a page of the site; choose another.');

/** Tags as a list, or as the form's comma-separated text. */
const tags = z
  .union([z.array(z.string()), z.string()], { error: 'Tags must be a list or comma-separated text.' })
  .transform((value) => (typeof value === 'string' ? value.split(',') : value).map((t) => t.trim()).filter(Boolean))
  .pipe(z.array(z.string().max(60, 'A tag is too long (60 characters at most).')).max(MAX_TAGS, `At most ${MAX_TAGS} tags.`));

const fields = {
  type: z.enum(newsTypes, { error: 'Choose the post type.' }),
  title: text('The title', MAX_TITLE, 1),
  summary: text('The summary', MAX_SUMMARY),
  body: text('The body', MAX_BODY, 1),
  access: z.enum(postAccesses, { error: 'Access must be public, limited or full.' }),
  status: z.enum(postStatuses, { error: 'Status must be draft, scheduled, published or unpublished.' }),
  publishAt: instant,
  slug,
  tags,
  author: text('The byline', 200, 1),
};

export const CreateBody = z
  .object({
    type: fields.type,
    title: fields.title,
    summary: fields.summary.optional().default(''),
    body: fields.body,
    access: fields.access.optional().default('public'),
    status: fields.status.optional().default('draft'),
    publishAt: fields.publishAt.optional(),
    slug: fields.slug.optional(),
    tags: fields.tags.optional().default([]),
    author: fields.author.optional(),
  })
  .strict();

export const PatchBody = z
  .object({
    type: fields.type.optional(),
    title: fields.title.optional(),
    summary: fields.summary.optional(),
    body: fields.body.optional(),
    access: fields.access.optional(),
    status: fields.status.optional(),
    publishAt: fields.publishAt.nullable().optional(),
    slug: fields.slug.optional(),
    tags: fields.tags.optional(),
    author: fields.author.optional(),
    cover: z.null({ error: 'A cover is uploaded with POST …/cover; send null to remove it.' }).optional(),
    restore: z.literal(true, { error: 'restore must be true.' }).optional(),
  })
  .strict();

export const PreviewBody = z.object({ body: z.string({ error: 'The body must be text.' }).max(MAX_BODY, `The body is too long (${formatCount(MAX_BODY)} characters at most).`) });

/** Reads a post's JSON body: the house rules (415, 400, never a 500) with the post's own size bound. */
export const readPostJson = <S extends z.ZodType>(request: Request, schema: S) =>
  readJson(request, schema, { maxBytes: MAX_POST_BODY_BYTES, tooLarge: 'The post is too large.' });

/** The desk's view of a post in answers. */
export const postView = (post: Post) => ({ ...post, url: articlePath(post) });

/** The refusals a change can meet, as answers. */
type Refusal = { readonly status: 400 | 409; readonly code: string; readonly message: string; readonly field?: string };
const refusal = (r: Refusal): Response => jsonError(r.status, r.code, r.message, r.field);

function answerWrite(result: PostWriteResult<Refusal>, okStatus = 200): Response {
  switch (result.kind) {
    case 'not_found':
      return jsonError(404, 'unknown_post', 'There is no such post.', 'id');
    case 'slug_taken':
      return jsonError(409, 'slug_taken', `The slug “${result.slug}” is taken (by another post, now or before).`, 'slug');
    case 'refused':
      return refusal(result.reason);
    case 'unchanged':
      return json({ changed: false, post: postView(result.post) });
    case 'written':
      return json({ changed: true, id: result.post.id, slug: result.post.slug, url: articlePath(result.post), auditId: result.entry.id, post: postView(result.post) }, okStatus);
  }
}

/** The audit action of a change: status changes first, then a slug change, else an edit. */
export function actionOf(before: Post, after: Post): string {
  if (before.deletedAt === null && after.deletedAt !== null) return 'post.delete';
  if (before.deletedAt !== null && after.deletedAt === null) return 'post.restore';
  if (before.status !== after.status) {
    const byStatus: Record<PostStatus, string> = { published: 'post.publish', scheduled: 'post.schedule', unpublished: 'post.unpublish', draft: 'post.draft' };
    return byStatus[after.status];
  }
  if (before.slug !== after.slug) return 'post.slug';
  if (before.cover?.image !== after.cover?.image) return 'post.cover';
  return 'post.update';
}

type Patch = z.output<typeof PatchBody>;

/** The post a patch makes of the current one (or the refusal): status rules, slug history, restore. */
export function applyPatch(current: Post, patch: Patch, now: Date): { ok: true; post: Post } | { ok: false; reason: Refusal } {
  if (current.deletedAt !== null && !patch.restore) return { ok: false, reason: { status: 409, code: 'deleted', message: 'The post is deleted; restore it first.' } };
  const status = patch.status ?? current.status;
  // A status that stays scheduled or published re-checks the time only when one is given.
  const statusChanged = patch.status !== undefined && patch.status !== current.status;
  let publishAt = current.publishAt;
  if (statusChanged || patch.publishAt !== undefined) {
    const rule = publishAtFor(status, patch.publishAt, current.publishAt, now);
    if (!rule.ok) return { ok: false, reason: { status: 400, code: 'invalid_input', message: rule.message, field: rule.field } };
    publishAt = rule.publishAt;
  }
  let { slug, oldSlugs } = current;
  if (patch.slug !== undefined && patch.slug !== current.slug) {
    oldSlugs = [...current.oldSlugs, current.slug].filter((s, i, all) => s !== patch.slug && all.indexOf(s) === i);
    if (oldSlugs.length > MAX_OLD_SLUGS) return { ok: false, reason: { status: 409, code: 'too_many_slugs', message: `A post keeps at most ${MAX_OLD_SLUGS} old slugs.`, field: 'slug' } };
    slug = patch.slug;
  }
  const next: Post = {
      ...current,
      type: patch.type ?? current.type,
      title: patch.title ?? current.title,
      summary: patch.summary ?? current.summary,
      body: patch.body ?? current.body,
      access: patch.access ?? current.access,
      tags: patch.tags ?? current.tags,
      author: patch.author ?? current.author,
      cover: patch.cover === null ? null : current.cover,
      status,
      publishAt,
      slug,
      oldSlugs,
      deletedAt: patch.restore ? null : current.deletedAt,
  };
  // A patch that changes nothing keeps the post as it is (and so writes nothing).
  return { ok: true, post: samePost(next, current) ? current : { ...next, updatedAt: now.toISOString() } };
}

/** POST /api/admin/posts */
export const createPost: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const input = await readPostJson(context.request, CreateBody);
  if (!input.ok) return input.response;
  const data = input.data;
  const now = new Date();
  const rule = publishAtFor(data.status, data.publishAt, null, now);
  if (!rule.ok) return jsonError(400, 'invalid_input', rule.message, rule.field);
  const db = await store();
  const author = data.author ?? context.locals.session?.record?.displayName ?? 'PolyIndex Desk';
  const base: Omit<Post, 'slug'> = {
    id: randomUUID(),
    oldSlugs: [],
    type: data.type,
    title: data.title,
    summary: data.summary,
    body: data.body,
    cover: null,
    access: data.access,
    status: data.status,
    publishAt: rule.publishAt,
    author: typeof author === 'string' && author.trim() ? author.trim().slice(0, 200) : 'PolyIndex Desk',
    authorUid: gate.actor.uid,
    tags: data.tags,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    deletedAt: null,
  };
  // A slug the editor chose must be free; a slug made from the title gets -2, -3 … when taken.
  const auto = data.slug === undefined;
  const first = data.slug ?? newPostSlug(data.title, now);
  for (let n = 1; n <= 50; n++) {
    const candidate = n === 1 ? first : `${first.slice(0, 100 - String(n).length - 1)}-${n}`;
    if (RESERVED_SLUGS.has(candidate)) continue;
    const result = await db.createPost({ post: { ...base, slug: candidate }, actor: gate.actor, now });
    if (result.kind === 'slug_taken' && auto) continue;
    return answerWrite(result, 201);
  }
  return jsonError(409, 'slug_taken', 'No free slug could be made from this title; choose a slug.', 'slug');
};

const DESK_PAGE = 50;

const ListQuery = z.object({
  type: z.enum(newsTypes, { error: 'type must be a post type.' }).optional(),
  status: z.enum(postStatuses, { error: 'status must be draft, scheduled, published or unpublished.' }).optional(),
  q: z.string().max(200, 'q is too long (200 characters at most).').optional(),
  deleted: z.enum(['0', '1'], { error: 'deleted must be 0 or 1.' }).optional(),
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM.')
    .transform((m) => ({ year: Number(m.slice(0, 4)), month: Number(m.slice(5, 7)) }))
    .optional(),
  page: z.string().regex(/^[1-9]\d{0,4}$/, 'page must be a positive whole number.').optional(),
});

/** The desk's list for the page and the API: type, status, words, deleted ones, a page of 50. */
export async function deskList(search: URLSearchParams): Promise<{ ok: true; posts: readonly Post[]; total: number; page: number; pageSize: number } | { ok: false; response: Response }> {
  const raw: Record<string, string> = {};
  for (const [key, value] of search) if (!(key in raw) && value !== '') raw[key] = value;
  const query = parseOr400(ListQuery, raw);
  if (!query.ok) return query;
  const page = Number(query.data.page ?? 1);
  const { posts, total } = await (await store()).listPosts({
    type: query.data.type,
    status: query.data.status,
    q: query.data.q,
    deleted: query.data.deleted === '1',
    month: query.data.month,
    limit: DESK_PAGE,
    offset: (page - 1) * DESK_PAGE,
  });
  return { ok: true, posts, total, page, pageSize: DESK_PAGE };
}

/** GET /api/admin/posts */
export const listPosts: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const list = await deskList(context.url.searchParams);
  if (!list.ok) return list.response;
  return json({ posts: list.posts.map(postView), total: list.total, page: list.page, pageSize: list.pageSize });
};

const idOf = (params: Record<string, string | undefined>): string => params['id'] ?? '';

/** GET /api/admin/posts/{id} */
export const getPost: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const post = await (await store()).getPost(idOf(context.params));
  return post ? json({ post: postView(post) }) : jsonError(404, 'unknown_post', 'There is no such post.', 'id');
};

/** PATCH /api/admin/posts/{id} */
export const patchPost: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const input = await readPostJson(context.request, PatchBody);
  if (!input.ok) return input.response;
  const now = new Date();
  const result = await (await store()).updatePost<Refusal>({
    id: idOf(context.params),
    actor: gate.actor,
    now,
    action: actionOf,
    change: (current) => {
      const next = applyPatch(current, input.data, now);
      return next.ok ? { ok: true, post: next.post } : { ok: false, reason: next.reason };
    },
  });
  return answerWrite(result);
};

/** DELETE /api/admin/posts/{id}: soft (the record, its slugs and its audit trail stay; readers get 404). */
export const deletePost: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const now = new Date();
  const result = await (await store()).updatePost<Refusal>({
    id: idOf(context.params),
    actor: gate.actor,
    now,
    action: 'post.delete',
    change: (current) => (current.deletedAt !== null ? { ok: true, post: current } : { ok: true, post: { ...current, deletedAt: now.toISOString(), updatedAt: now.toISOString() } }),
  });
  if (result.kind === 'written' || result.kind === 'unchanged') return json({ deleted: true, changed: result.kind === 'written' });
  return answerWrite(result);
};

/** POST /api/admin/posts/preview `{body}` → `{html}`: exactly what the site will show. */
export const previewPost: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const input = await readPostJson(context.request, PreviewBody);
  if (!input.ok) return input.response;
  return json({ html: renderPostHtml(input.data.body) });
};
