/** GET /api/admin/forecasts/{id}: one forecast, its score and its corrections. Never edited or deleted. Editors and admins. */
export { readForecast as GET } from '../../../../server/forecasts/endpoints.ts';
