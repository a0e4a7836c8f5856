/**
 * The admin area's endpoints (JSON): the audit log, users and their plans, prices, the city-wise
 * sheets and offers (administrators), and the newsroom: posts and banners (editors and
 * administrators). Each handler asks again itself (`requireAdmin` / `requireEditor` in
 * ./guard.ts, which also refuse a write from another origin) and every change is audited by the
 * store in the same transaction.
 */
import { endpoint } from '../edge/endpoint.ts';
import { json } from '../http/responses.ts';
import { publicUserRecord } from '../users.ts';
import { auditQueryOf } from './auditQuery.ts';
import * as banners from './bannerChanges.ts';
import { requireAdmin } from './guard.ts';
import { setCityPrice, setOffers } from './marketChanges.ts';
import { createPost, deletePost, getPost, listPosts, patchPost, previewPost } from './postChanges.ts';
import { uploadCover } from './postCover.ts';
import { sendTestMail } from './postMail.ts';
import { deletePoint, importPrices, setPoint } from './priceChanges.ts';
import { importListPrices, setListPrice } from './producerPriceChanges.ts';
import { ExtendBody, extendChange, GrantBody, grantChange, RevokeBody, revokeChange, RoleBody, roleChange, userChangeEndpoint } from './userChanges.ts';

// ---- administrators -------------------------------------------------------------------------

/** GET /api/admin/audit?target&actor&page&pageSize: the audit log, newest first. */
export const auditLog = endpoint('admin', async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  return json(await (await context.store()).listAudit(auditQueryOf(context.url.searchParams)), { headers: { 'Cache-Control': 'private, no-store' } });
});

/** GET /api/admin/users?q=…: users by e-mail, phone or uid (the newest without a query). */
export const findUsers = endpoint('admin', async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const query = (context.url.searchParams.get('q') ?? '').trim().slice(0, 200);
  const users = await (await context.store()).searchUsers(query, 50);
  return json({ users: users.map(publicUserRecord) }, { headers: { 'Cache-Control': 'private, no-store' } });
});

/** POST /api/admin/users/{uid}/role `{role: 'admin'|'user'}`: sets the role (never one's own admin role away). */
export const setUserRole = endpoint('admin', userChangeEndpoint({ action: 'user.role', body: RoleBody, change: roleChange }));
/** POST /api/admin/users/{uid}/grant `{plan, expiresOn?: 'YYYY-MM-DD'}`: grants a plan until that day ends in India, or for the plan's duration. */
export const grantUserPlan = endpoint('admin', userChangeEndpoint({ action: 'user.grant', body: GrantBody, change: grantChange }));
/** POST /api/admin/users/{uid}/extend `{days}` or `{until: 'YYYY-MM-DD'}`: extends the current plan. */
export const extendUserPlan = endpoint('admin', userChangeEndpoint({ action: 'user.extend', body: ExtendBody, change: extendChange }));
/** POST /api/admin/users/{uid}/revoke `{}`: ends the plan now (kept as lastPlan). */
export const revokeUserPlan = endpoint('admin', userChangeEndpoint({ action: 'user.revoke', body: RevokeBody, change: revokeChange }));

/** POST /api/admin/prices/{series}/set `{date, value, expected?}`: adds or changes one point (409 when it changed meanwhile). */
export const setPricePoint = endpoint('admin', setPoint);
/** POST /api/admin/prices/{series}/delete `{date, expected}`: deletes one point (409 when it changed meanwhile). */
export const deletePricePoint = endpoint('admin', deletePoint);
/** POST /api/admin/prices/import[?dryRun=1] (text/csv): the bulk import, all or nothing. */
export const importPriceCsv = endpoint('admin', importPrices);

/** POST /api/admin/producer-prices `{producer, grade, location, effective, value}`: one producer list price. */
export const setProducerListPrice = endpoint('admin', setListPrice);
/** POST /api/admin/producer-prices/import[?dryRun=1] (text/csv): producer list prices, all or nothing. */
export const importProducerListPrices = endpoint('admin', importListPrices);

/** POST /api/admin/citywise/{city}/set `{date, grade, price|null, expected?}`: one row of a city's sheet (409 when it changed meanwhile). */
export const setCitywisePrice = endpoint('admin', setCityPrice);
/** POST /api/admin/offers/{country}/set `{date, data: {group: {grade: value | {low, high}}}}`: a country's offers of one date. */
export const setCountryOffers = endpoint('admin', setOffers);

// ---- the newsroom: editors and administrators -----------------------------------------------

/** GET /api/admin/posts?type&status&q&deleted&page: the desk's list. */
export const deskPosts = endpoint('editor', listPosts);
/** POST /api/admin/posts: a new post. */
export const newPost = endpoint('editor', createPost);
/** GET /api/admin/posts/{id}. */
export const readPost = endpoint('editor', getPost);
/** PATCH /api/admin/posts/{id}: edit, schedule, publish, unpublish. */
export const editPost = endpoint('editor', patchPost);
/** DELETE /api/admin/posts/{id} (soft). */
export const removePost = endpoint('editor', deletePost);
/** POST /api/admin/posts/preview `{body}` → `{html}`: the editor's live preview, by the site's own renderer. */
export const postPreview = endpoint('editor', previewPost);
/** POST /api/admin/posts/{id}/cover (multipart: image, alt): the post's cover image. */
export const postCover = endpoint('editor', uploadCover);
/** POST /api/admin/posts/{id}/test-mail `{}`: the post as a mail, to the editor's own address. */
export const postTestMail = endpoint('editor', sendTestMail);

/** POST /api/admin/banners (multipart: image, alt, title, subtitle, href): adds a carousel banner, last. */
export const addBanner = endpoint('editor', banners.addBanner);
/** POST /api/admin/banners/{id}/move `{direction: 'up'|'down'}`. */
export const moveBanner = endpoint('editor', banners.moveBanner);
/** POST /api/admin/banners/{id}/remove `{}`: removes the banner and its uploaded image. */
export const removeBanner = endpoint('editor', banners.removeBanner);
