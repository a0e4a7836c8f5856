/**
 * The Content-Security-Policy check of one page in Chromium, shared by tests/e2e/csp.spec.ts
 * (desktop) and csp.mobile.spec.ts (the phone layout): the page carries a policy without
 * 'unsafe-inline' or 'unsafe-eval' for scripts, and the browser reports no
 * `securitypolicyviolation` and logs no CSP error while a person uses it.
 */
import { expect, test, type Page } from '@playwright/test';
import { signInAs } from './auth.ts';

export type Who = 'anonymous' | 'free@polyindex.test' | 'premium@polyindex.test' | 'admin@polyindex.test' | 'editor@polyindex.test';

export interface CspCase {
  readonly family: string;
  readonly path: string;
  readonly who: Who;
  /** What a person does on the page once it has loaded (optional). */
  readonly use?: (page: Page) => Promise<void>;
  /**
   * The page's policy arrives as a header (rendered on demand) or a <meta> (prerendered);
   * 'either' only where a page is moving from one to the other on another branch.
   */
  readonly delivery: 'header' | 'meta' | 'either';
  /** The status the page answers with, when not 200 (the 503 page, a refused link). */
  readonly status?: number;
}

interface Report {
  readonly directive: string;
  readonly blocked: string;
  readonly source: string;
  readonly page: string;
}

/** Collects every violation the browser reports and every CSP line it logs, across navigations. */
export async function watchCsp(page: Page): Promise<{ violations: Report[]; console: string[] }> {
  const violations: Report[] = [];
  const logged: string[] = [];
  await page.exposeFunction('__reportCspViolation', (report: Report) => violations.push(report));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __reportCspViolation: (r: unknown) => void }).__reportCspViolation({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
        page: location.pathname,
      });
    });
  });
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) logged.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (/Content[ -]Security[ -]Policy/i.test(error.message)) logged.push(`pageerror: ${error.message}`);
  });
  return { violations, console: logged };
}

/** What is wrong with a page's policy for scripts: none, or no script-src, 'unsafe-inline', 'unsafe-eval'. */
export function scriptPolicyProblems(policy: string | null | undefined): string[] {
  if (!policy) return ['no Content-Security-Policy (header or <meta>)'];
  const scriptSrc = policy.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src '));
  if (!scriptSrc) return ['no script-src'];
  return ["'unsafe-inline'", "'unsafe-eval'"].filter((source) => scriptSrc.includes(source)).map((source) => `script-src allows ${source}`);
}

/** The page's policy as the browser got it: the answer's header, else the page's <meta>. */
export async function policyOf(page: Page, header: string | undefined): Promise<string | null> {
  return header ?? (await page.evaluate(() => document.querySelector('meta[http-equiv="content-security-policy"]')?.getAttribute('content') ?? null));
}

/** One test per row. */
export function cspTests(rows: readonly CspCase[]): void {
  for (const row of rows) cspTest(row);
}

function cspTest(row: CspCase): void {
  test(`CSP: ${row.family} ${row.path} (${row.who})`, async ({ page, context }) => {
    const seen = await watchCsp(page);
    if (row.who !== 'anonymous') await signInAs(context, row.who);

    const response = await page.goto(row.path);
    expect(response, row.path).not.toBeNull();
    expect(response!.status(), row.path).toBe(row.status ?? 200);
    const header = response!.headers()['content-security-policy'];
    const meta = await page.evaluate(() => document.querySelector('meta[http-equiv="content-security-policy"]')?.getAttribute('content') ?? null);
    const policy = row.delivery === 'header' ? header : row.delivery === 'meta' ? meta : (header ?? meta);
    expect(policy, `a ${row.delivery} policy on ${row.path}`).toBeTruthy();
    expect(scriptPolicyProblems(policy!)).toEqual([]);
    if (policy === header) expect(policy).toContain("frame-ancestors 'none'");

    await row.use?.(page);
    // Late reports (lazy images, hydration) arrive after load: let the page settle first.
    await page.waitForLoadState('networkidle');
    expect(seen.violations, 'securitypolicyviolation events').toEqual([]);
    expect(seen.console, 'CSP messages in the console').toEqual([]);
  });
}

