/** POST /api/admin/producer-prices `{producer, grade, location, effective, value}`: one producer list price. Audited. */
export { setProducerListPrice as POST } from '../../../../server/admin/endpoints.ts';
