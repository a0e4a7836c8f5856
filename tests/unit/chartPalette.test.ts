import { differenceCiede2000, filterDeficiencyDeuter, filterDeficiencyProt, filterDeficiencyTrit, parse, wcagContrast, type Color } from 'culori';
import { describe, expect, it } from 'vitest';
import { LINE_COLOR, PALETTE } from '../../src/lib/chartPalette.ts';

// How far apart two colours are (CIEDE2000): about 2 is "just noticeable"; lines 2.5 px wide on
// a chart want far more. The old palette had two teals 13.6 apart for everyone, 5.1 for deuteranopes.
const distance = differenceCiede2000();
const MIN_SEEN = 25;
const MIN_SIMULATED = 12;
const visions = {
  protanopia: filterDeficiencyProt(1),
  deuteranopia: filterDeficiencyDeuter(1),
  tritanopia: filterDeficiencyTrit(1),
} as const;

/** The closest pair of colours after `see`, with their distance. */
function closest(colors: readonly string[], see: (color: Color) => Color = (c) => c): { distance: number; pair: string } {
  const seen = colors.map((c) => see(parse(c)!));
  let best = { distance: Infinity, pair: '' };
  for (let i = 0; i < colors.length; i++) {
    for (let j = i + 1; j < colors.length; j++) {
      const d = distance(seen[i]!, seen[j]!);
      if (d < best.distance) best = { distance: d, pair: `${colors[i]} / ${colors[j]}` };
    }
  }
  return best;
}

describe('chart palette', () => {
  it('has six colours, red first', () => {
    expect(PALETTE).toHaveLength(6);
    expect(PALETTE[0]).toBe(LINE_COLOR);
    expect(new Set(PALETTE).size).toBe(6);
  });

  it(`keeps every pair at least ${MIN_SEEN} apart (CIEDE2000) with normal colour vision`, () => {
    expect(closest(PALETTE).distance).toBeGreaterThanOrEqual(MIN_SEEN);
  });

  it.each(Object.entries(visions))(`keeps every pair at least ${MIN_SIMULATED} apart for %s`, (_, see) => {
    const { distance: d, pair } = closest(PALETTE, see);
    expect(d, pair).toBeGreaterThanOrEqual(MIN_SIMULATED);
  });

  it('shows every line against the white chart (contrast ≥ 3:1, WCAG 1.4.11)', () => {
    for (const color of PALETTE) expect(wcagContrast(color, '#ffffff'), color).toBeGreaterThanOrEqual(3);
  });

  it('the check can fail: the palette before issue 22 had two near-identical teals', () => {
    const before = ['#d62828', '#0b2545', '#13838f', '#e09f3e', '#6a4c93', '#2a9d8f'];
    expect(closest(before).distance).toBeLessThan(MIN_SEEN);
    expect(closest(before, visions.deuteranopia).distance).toBeLessThan(MIN_SIMULATED);
  });
});
