/** GET /api/admin/forecasts?series= (the forecasts on a series); POST /api/admin/forecasts (the desk publishes one). Editors and admins; audited. */
export { listForecasts as GET, publishForecast as POST } from '../../../../server/forecasts/endpoints.ts';
