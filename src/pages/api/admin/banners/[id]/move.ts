/** POST /api/admin/banners/{id}/move `{direction: 'up'|'down'}`. Audited. */
export { moveBanner as POST } from '../../../../../server/admin/endpoints.ts';
