/** POST /api/admin/producer-prices/import[?dryRun=1] (text/csv): producer list prices, all or nothing. Audited. */
export { importProducerListPrices as POST } from '../../../../server/admin/endpoints.ts';
