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

/**
 * Every dependency in package.json is used: imported somewhere in the repository's code, or one of
 * the tools named here (run as commands or by path, or read by a tool). A package nothing uses
 * is dropped, not kept "just in case".
 */
describe('package.json lists only what the project uses', () => {
  const TOOLS: Record<string, string> = {
    '@astrojs/check': 'astro check (npm run check)',
    'firebase-tools': 'the Auth emulator, run by path (scripts/lib/auth-emulator.mjs)',
    node: 'the Node the project runs on',
    typescript: 'tsc (npm run check)',
  };
  const CODE_DIRS = ['src', 'scripts', 'tests'];
  const CODE_FILES = ['astro.config.mjs', 'eslint.config.js', 'vitest.config.ts', 'playwright.config.ts'];
  const CODE = /\.(ts|tsx|mts|mjs|js|astro)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : walk(path);
      return CODE.test(entry.name) ? [path] : [];
    });
  const code = [...CODE_DIRS.flatMap((dir) => walk(resolve(dir))), ...CODE_FILES.map((file) => resolve(file)).filter((file) => { try { readFileSync(file); return true; } catch { return false; } })]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const specifiers = new Set([...code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+|require\s*\(\s*)['"]([^'"./][^'"]*)['"]/g)].map((m) => m[1]!));
  const packageOf = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
  const imported = new Set([...specifiers].map(packageOf));
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

  it.each([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)])('%s is used', (name) => {
    // A types package counts when the package it types is imported.
    const typed = name.startsWith('@types/') ? name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2') : null;
    const used = imported.has(name) || (typed !== null && (imported.has(typed) || typed === 'node')) || name in TOOLS;
    expect(used, `${name}: nothing imports it; remove it from package.json (or name the tool that runs it)`).toBe(true);
  });
});

describe("the scripts' session cookie (scripts/lib/session-cookie.mjs, read with the cookie package)", () => {
  it('finds __session among the Set-Cookie headers, whatever its attributes, or null', async () => {
    const { sessionCookieOf } = await import('../../scripts/lib/session-cookie.mjs');
    expect(sessionCookieOf(['a=1; Path=/', '__session=x.y.z; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=432000'])).toBe('__session=x.y.z');
    expect(sessionCookieOf(['__session=; Path=/; Max-Age=0'])).toBeNull();
    expect(sessionCookieOf([])).toBeNull();
  });
});
