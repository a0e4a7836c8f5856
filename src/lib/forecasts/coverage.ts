/**
 * Which series carry forecasts, and where they are shown: each future-trend product's
 * series (its own CIF price where we have one, else its main feedstock: relatedSeries.ts) on
 * `/future-trend/{product}`, and the Mumbai ex-works prices of the main grades on the Indian
 * bazaar's price-prediction page. The desk may forecast any series of the catalog; these are
 * the ones the pages show and the demo fills.
 */
import { futureTrendProducts } from '../catalog.ts';
import { relatedSeriesOf } from '../relatedSeries.ts';
import { historicalSeriesId } from '../seriesCatalog.ts';

/** The Indian bazaar's price-prediction series: Mumbai ex-works (₹/kg incl. GST) of one grade per polymer. */
export const pricePredictionSeriesIds: readonly string[] = [
  historicalSeriesId('ppRaffia', 'Mumbai'),
  historicalSeriesId('hdpeFilm', 'Mumbai'),
  historicalSeriesId('lldpeFilm', 'Mumbai'),
  historicalSeriesId('ldpeGeneral', 'Mumbai'),
  historicalSeriesId('pvcExtrusion', 'Mumbai'),
];

/** The series a future-trend product's forecasts are on. */
export const productForecastSeries = (productSlug: string): string => relatedSeriesOf(productSlug);

/** Every series the pages show forecasts for, once each, in page order. */
export const forecastSeriesIds: readonly string[] = [...new Set([...futureTrendProducts.map((p) => productForecastSeries(p.slug)), ...pricePredictionSeriesIds])];

/** A future-trend product's public track record (the scoreboard and matured calls). */
export const trackRecordPath = (productSlug: string): string => `/future-trend/${productSlug}/track-record`;
