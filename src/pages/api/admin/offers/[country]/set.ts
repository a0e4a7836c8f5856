/** POST /api/admin/offers/{country}/set `{date, data: {group: {grade: value | {low, high}}}}`: a country's offers of one date. Audited. */
export { setCountryOffers as POST } from '../../../../../server/admin/endpoints.ts';
