/** Layout behaviour constants from the spec, and the pure decisions behind them. */

/** The back-to-top button appears after scrolling more than this many pixels. */
export const BACK_TO_TOP_AFTER_PX = 500;
/** A left swipe longer than this closes the mobile menu. */
export const MENU_SWIPE_CLOSE_PX = 50;
/** The loading placeholder is hidden after at most this long. */
export const LOADING_PLACEHOLDER_MAX_MS = 4000;
/** The mobile layout applies below this width (the "medium" breakpoint). */
export const MEDIUM_BREAKPOINT_PX = 768;

export const showBackToTop = (scrollY: number): boolean => scrollY > BACK_TO_TOP_AFTER_PX;

/** A mostly-horizontal leftward swipe of more than 50 px. */
export function isCloseSwipe(start: { x: number; y: number }, end: { x: number; y: number }): boolean {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  return dx < -MENU_SWIPE_CLOSE_PX && Math.abs(dx) > Math.abs(dy);
}
