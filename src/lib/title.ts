export const PRODUCT_NAME = 'PolyIndex';

/** "PolyIndex | " plus the first path segment capitalised, or "PolyIndex | Home" at the root. */
export function pageTitle(pathname: string): string {
  const first = pathname.split('/').find((segment) => segment.length > 0);
  if (first === undefined) return `${PRODUCT_NAME} | Home`;
  const segment = decodeURIComponent(first);
  return `${PRODUCT_NAME} | ${segment.charAt(0).toUpperCase()}${segment.slice(1)}`;
}
