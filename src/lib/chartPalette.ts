/**
 * The colours of every price chart: red first (the house colour of a price line), then five that stay apart for readers
 * with red-green or blue-yellow colour blindness and show against white (contrast ≥ 3:1 for a
 * line): Okabe–Ito's blue and bluish green, its yellow darkened to an ochre, Paul Tol's
 * purple, and the site's navy. tests/unit/chartPalette.test.ts checks them through a colour
 * vision simulation (Machado et al. 2009, full severity) with CIEDE2000 distances.
 */
export const LINE_COLOR = '#d62828';
export const PALETTE: readonly string[] = [LINE_COLOR, '#0072b2', '#a08f00', '#009e73', '#aa3377', '#0b2545'];
