/**
 * Issue 20: numbers are written by one owner, src/lib/numbers.ts. A source scan, as the import
 * and unit-spelling tests do: no other module formats or rounds a number for a reader by hand
 * (toFixed, toPrecision, toLocaleString, Intl.NumberFormat, Math.round(x * 100) / 100). The few
 * that write something that is not a figure for a reader are listed with their reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** What formats or rounds a number by hand (each pattern on one line of code). */
const BY_HAND: readonly { name: string; pattern: RegExp }[] = [
  { name: 'toFixed', pattern: /\.toFixed\(/ },
  { name: 'toPrecision', pattern: /\.toPrecision\(/ },
  { name: 'toLocaleString', pattern: /\.toLocaleString\(/ },
  { name: 'Intl.NumberFormat', pattern: /\bIntl\.NumberFormat\b/ },
  // Math.round(x * 100) / 100, Math.round(x * 1e4) / 1e2, Math.round(x * 10_000) / 100 …
  { name: 'Math.round(x * 10ⁿ) / 10ⁿ', pattern: /Math\.round\(.*\*\s*(?:1[0_]*|1e\d+)\s*\)\s*\/\s*(?:1[0_]*|1e\d+)\b/ },
];

/** Files (under src/) that may, each with why: geometry and wire text, never a figure a reader reads. */
const ALLOWED: Readonly<Record<string, string>> = {
  'lib/numbers.ts': 'the owner: every rule of how a number is written',
  'lib/chartBands.ts': 'SVG path coordinates of a range band (one decimal of a pixel), not a figure',
  'scripts/home.ts': 'SVG polyline points of the home cards’ sparklines, not a figure',
};

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|tsx|astro|mjs|js)$/.test(e.name) ? [join(dir, e.name)] : []));

const src = resolve('src');

/** Every line of code under src/ that formats a number by hand: "file:line: what (the line)". */
function handFormatting(allowed: Readonly<Record<string, string>>): string[] {
  return sources(src)
    .map((file) => relative(src, file))
    .filter((file) => !(file in allowed) && !file.startsWith('content/'))
    .flatMap((file) =>
      readFileSync(join(src, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => {
          // A comment may say how a number is written.
          const code = line.replace(/^\s*(\/\/|\*|\/\*\*?).*$/, '');
          return BY_HAND.filter((b) => b.pattern.test(code)).map((b) => `${file}:${i + 1}: ${b.name} (${line.trim()})`);
        }),
    );
}

describe('numbers are written by src/lib/numbers.ts alone', () => {
  it('finds no number formatted or rounded by hand outside it (a short list of reasoned exceptions)', () => {
    expect(handFormatting(ALLOWED)).toEqual([]);
  });

  it('allows only files that exist and still need it, each with its reason', () => {
    for (const [file, reason] of Object.entries(ALLOWED)) {
      expect(reason.length, file).toBeGreaterThan(20);
      const text = readFileSync(join(src, file), 'utf8');
      expect(BY_HAND.some((b) => b.pattern.test(text)), `${file} no longer formats by hand: take it off the list`).toBe(true);
    }
  });

  it('sees each way of formatting by hand (the scan is not blind)', () => {
    const caught = (line: string) => BY_HAND.filter((b) => b.pattern.test(line)).map((b) => b.name);
    expect(caught('const t = `${value.toFixed(2)}%`;')).toEqual(['toFixed']);
    expect(caught("x.toLocaleString('en-IN')")).toEqual(['toLocaleString']);
    expect(caught("new Intl.NumberFormat('en-IN', {})")).toEqual(['Intl.NumberFormat']);
    expect(caught('const r2 = (v: number) => Math.round(v * 100) / 100;')).toEqual(['Math.round(x * 10ⁿ) / 10ⁿ']);
    expect(caught('const p = `${Math.round(fraction * 10_000) / 100}%`;')).toEqual(['Math.round(x * 10ⁿ) / 10ⁿ']);
    expect(caught('const i = Math.round(ms / 1000);')).toEqual([]);
    // And the owner itself would be caught were it not the owner.
    const withoutOwner = Object.fromEntries(Object.entries(ALLOWED).filter(([file]) => file !== 'lib/numbers.ts'));
    expect(handFormatting(withoutOwner).some((line) => line.startsWith('lib/numbers.ts:'))).toBe(true);
  });
});
