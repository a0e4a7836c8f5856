/** POST /api/admin/citywise/{city}/set `{date, grade, price|null, expected?}`: one row of a city's sheet (409 when it changed meanwhile). Audited. */
export { setCitywisePrice as POST } from '../../../../../server/admin/endpoints.ts';
