/**
 * Rows of the price tables as port records. Their own module: the price store, the banner
 * writes and the transfer all read them, and none of those may import another in a circle.
 */
import type { Row } from '@libsql/client';
import type { SeriesDef } from '../../../lib/seriesCatalog.ts';
import type { Banner, CityPriceRow, OfferData, OfferRecord, OfferRanges, PricePoint } from '../prices.ts';

export const toSeries = (row: Row): SeriesDef => ({
  id: String(row['id']),
  family: String(row['family']) as SeriesDef['family'],
  product: String(row['product']),
  market: String(row['market']),
  grade: String(row['grade']),
  unit: String(row['unit']) as SeriesDef['unit'],
  currency: String(row['currency']) as SeriesDef['currency'],
  frequency: String(row['frequency']) as SeriesDef['frequency'],
  label: String(row['label']),
});
/** `{low, high}` of a row with a range, `{}` of one without (no undefined fields: checksums compare records). */
export const rangeOfRow = (row: Row): { low: number; high: number } | Record<string, never> =>
  row['low'] === null || row['low'] === undefined || row['high'] === null || row['high'] === undefined ? {} : { low: Number(row['low']), high: Number(row['high']) };
export const toPoint = (row: Row): PricePoint => ({ date: String(row['date']), value: Number(row['value']), ...rangeOfRow(row) });
export const toCityRow = (row: Row): CityPriceRow => ({
  city: String(row['city']),
  polymerType: String(row['polymer_type']),
  grade: String(row['grade']),
  price: Number(row['price']),
  ...rangeOfRow(row),
  date: String(row['date']),
});
export const toOffer = (row: Row): OfferRecord => ({
  country: String(row['country']),
  date: String(row['date']),
  data: JSON.parse(String(row['data'])) as OfferData,
  ...offerRangesOfRow(row),
});
/** `{ranges}` of an offer row with ranges (column `ranges`, NULL without: every row written before them), `{}` of one without. */
export const offerRangesOfRow = (row: Row): { ranges: OfferRanges } | Record<string, never> =>
  row['ranges'] === null || row['ranges'] === undefined ? {} : { ranges: JSON.parse(String(row['ranges'])) as OfferRanges };
/** The `ranges` column of an offer day: its ranges as JSON, NULL when it has none. */
export const rangesColumn = (day: { readonly ranges?: OfferRanges | undefined }): string | null => (day.ranges ? JSON.stringify(day.ranges) : null);
export const toBanner = (row: Row): Banner => ({
  id: String(row['id']),
  title: String(row['title']),
  subtitle: String(row['subtitle']),
  href: String(row['href']),
  image: String(row['image']),
  alt: String(row['alt']),
  order: Number(row['sort_order']),
});
