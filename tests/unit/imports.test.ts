/**
 * The house rules on imports, over the source files themselves: no import circles anywhere in
 * src/ (type-only imports included: a circle of types is still a tangle), and the server never
 * imports an island (shared types live in src/lib).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');
const SOURCE = /\.(ts|tsx|astro)$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** Relative imports and re-exports of one file, resolved to files of src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/g), ...text.matchAll(/(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((specifier) => resolve(dirname(file), specifier));
}

const all = files(SRC);
const graph = new Map(all.map((file) => [file, importsOf(file).filter((target) => all.includes(target))]));
const name = (file: string) => relative(SRC, file);

/** Every circle as the list of files on it (each found once, from its first file in walk order). */
function circles(): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string) => {
    if (onStack.has(file)) {
      found.push([...stack.slice(stack.indexOf(file)), file].map(name));
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
    stack.pop();
    onStack.delete(file);
    done.add(file);
  };
  for (const file of all) visit(file);
  return found;
}

describe('imports', () => {
  it('reads the import graph (a sanity check of the reader itself)', () => {
    expect(graph.get(join(SRC, 'server/store/sqlite/prices.ts'))).toContain(join(SRC, 'server/store/sqlite/priceRows.ts'));
    expect(graph.get(join(SRC, 'pages/api/feedstock.ts'))).toContain(join(SRC, 'server/api/endpoints.ts'));
    expect(graph.get(join(SRC, 'server/api/routes.ts'))).toContain(join(SRC, 'server/api/endpoints.ts'));
  });

  it('has no circles', () => {
    expect(circles()).toEqual([]);
  });

  it('keeps the server away from islands', () => {
    const offending = all
      .filter((file) => name(file).startsWith('server/'))
      .flatMap((file) => graph.get(file)!.filter((target) => name(target).startsWith('islands/')).map((target) => `${name(file)} → ${name(target)}`));
    expect(offending).toEqual([]);
  });
});
