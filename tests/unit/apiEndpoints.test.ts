/**
 * The one endpoint style, over every route file under src/pages/api: a route file only binds its
 * path to endpoints declared in src/server/<feature>/endpoints.ts (no handler of its own, nothing
 * else), and each endpoint it binds declares the access its path asks, which is what the access
 * policy (`requirementOf`, hence `decide()`) says for that path.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decide, requirementOf } from '../../src/lib/access/policy.ts';
import { isEndpoint } from '../../src/server/edge/endpoint.ts';

const modules = import.meta.glob<Record<string, unknown>>('../../src/pages/api/**/*.ts', { eager: true });
const files = Object.keys(modules).toSorted();

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'ALL']);

/** The one statement a route file may hold (besides comments): a re-export of endpoints under method names. */
const BINDING = /^export \{ (?:\w+ as [A-Z]+)(?:, \w+ as [A-Z]+)* \} from '(?:\.\.\/)+server\/[a-z]+\/endpoints\.ts';$/;

/** What is left of a route file once its comments are gone, one statement per line. */
function statementsOf(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** A request path the file answers: `[param]` becomes a sample value, `index` its folder. */
function samplePath(file: string): string {
  return file
    .replace('../../src/pages', '')
    .replace(/\.ts$/, '')
    .replace(/\/index$/, '')
    .replace(/\[[^\]]+\]/g, 'sample');
}

/** Queries that change what a path asks (`/api/blogs?type=`), and ones that do not. */
const SEARCHES = ['', '?type=buy-sell', '?type=plant-news', '?type=vip-delegations', '?type=services', '?type=nope'];

describe('every route file under src/pages/api binds endpoints, and only that', () => {
  it('finds the route files (a sanity check of the glob)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain('../../src/pages/api/feedstock.ts');
  });

  it.each(files)('%s holds no handler of its own', (file) => {
    const statements = statementsOf(readFileSync(new URL(file, import.meta.url), 'utf8'));
    expect(statements.length, `${file} binds nothing`).toBeGreaterThan(0);
    for (const statement of statements) expect(statement, `${file}: only \`export { endpoint as METHOD } from '…/server/<feature>/endpoints.ts'\``).toMatch(BINDING);
  });

  it.each(files)('%s: each method is a declared endpoint whose access is the policy row of its path', (file) => {
    const path = samplePath(file);
    const exported = Object.entries(modules[file]!);
    expect(exported.length, `${file} exports nothing`).toBeGreaterThan(0);
    for (const [name, value] of exported) {
      expect(METHODS.has(name), `${file} exports ${name}, which is not an HTTP method`).toBe(true);
      expect(isEndpoint(value), `${file} ${name} is not declared with endpoint(access, handler)`).toBe(true);
      if (!isEndpoint(value)) continue;
      for (const search of SEARCHES) {
        const declared = value.access(search);
        expect(declared, `${file} ${name}${search}: declared ${declared}, the policy says ${requirementOf(path, search)}`).toBe(requirementOf(path, search));
        // And the gate's decision for an anonymous caller follows from it.
        expect(decide(path, null, new Date(), search).kind, `${path}${search}`).toBe(declared === 'public' ? 'allow' : 'deny');
      }
    }
  });
});
