/** The colours of every price chart: red first (spec §9), then distinct, print-safe colours. */
export const LINE_COLOR = '#d62828';
export const PALETTE: readonly string[] = [LINE_COLOR, '#0b2545', '#13838f', '#e09f3e', '#6a4c93', '#2a9d8f'];
