/**
 * Which price series shows the "recent trend" beside each future-trend product's outlook: the
 * product's own CIF series where we have one, else its main feedstock. Keys are checked
 * against the catalog by a test, so a renamed slug cannot drift silently.
 */
import { allSeries, feedstockSeriesId, historicalSeriesId } from './seriesCatalog.ts';

const RELATED: Record<string, string> = {
  PP: historicalSeriesId('ppRaffia', 'CIF NS'),
  PE: historicalSeriesId('hdpeFilm', 'CIF NS'),
  PVC: historicalSeriesId('pvcExtrusion', 'CIF NS'),
  PET: feedstockSeriesId('PTA', 'china'),
  PS: feedstockSeriesId('Styrene', 'china'),
  ABS: feedstockSeriesId('Butadiene', 'china'),
  EVA: feedstockSeriesId('VA', 'china'),
  PC: feedstockSeriesId('Naphtha', 'japan'),
  SAN: feedstockSeriesId('Styrene', 'korea'),
  'nylon-6-nylon-66': feedstockSeriesId('Naphtha', 'japan'),
  PBT: feedstockSeriesId('PTA', 'china'),
  POM: feedstockSeriesId('Crude', 'brent'),
  PMMA: feedstockSeriesId('Crude', 'brent'),
  bopp: historicalSeriesId('ppFilm', 'CIF NS'),
  polyester: feedstockSeriesId('MEG', 'china'),
};

export const relatedSeriesKeys = Object.keys(RELATED);

/** The series id for a future-trend product slug (falls back to the first series: Brent). */
export const relatedSeriesOf = (productSlug: string): string => RELATED[productSlug] ?? allSeries[0]!.id;
