/** POST /api/admin/prices/import[?dryRun=1] (text/csv): the bulk import, all or nothing. Audited. */
export { importPriceCsv as POST } from '../../../../server/admin/endpoints.ts';
