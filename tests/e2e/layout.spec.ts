/**
 * The layout check (issue 22): every page kind, at a phone's 390×844 and a laptop's 1366×900,
 * as each demo account that may see it (the access policy decides who), looked at as a person
 * would (tests/e2e/helpers/layout.ts): no sideways scroll, no visible text under 11 CSS px
 * (chart labels included, as drawn), nothing wider than its container, no clipped heading, a
 * phone header of at most 72 px with nothing in it on two lines; and, on the same visit, a
 * Content-Security-Policy without 'unsafe-inline' or 'unsafe-eval' for scripts and no violation
 * reported or logged. A test lists every finding on its page at both sizes, not the first.
 *
 * Roles that get the same page are looked at once: when the server's answer is the same for
 * them and nothing on the page draws for the viewer in the browser but the header's session
 * area, they see the same page (the header test opens a page as every role, so the session
 * area of each is checked). A page with an island or a script of its own is opened as each role.
 *
 * A page kind is a route file of src/pages with one address of it (from the catalog, or found
 * on the site). The first test fails when a route file has no row here, so a new page is
 * checked as soon as it exists.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { request as playwrightRequest, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { decide, type SessionFacts } from '../../src/lib/access/policy.ts';
import { feedstocks, futureTrendProducts, globalBazaarCountries, indianBazaarSections, polymers, services, vipDelegationYears } from '../../src/lib/catalog.ts';
import { demoAccounts, demoRecord } from '../../src/server/demoAccounts.ts';
import { baseURL } from './env.ts';
import { signInByApi } from './helpers/auth.ts';
import { policyOf, scriptPolicyProblems, watchCsp } from './helpers/csp.ts';
import { expect, KEPT_CONNECTION_RETRIES, test, type KeptContexts } from './helpers/keptContexts.ts';
import { formatFinding, measureLayout, MIN_TEXT_PX, PHONE_HEADER_MAX_PX, settle, type LayoutFinding } from './helpers/layout.ts';

/** The people of the check: anonymous, and the demo accounts of the access table. */
const ROLES = {
  anonymous: null,
  free: 'free@polyindex.test',
  basic: 'basic@polyindex.test',
  premium: 'premium@polyindex.test',
  admin: 'admin@polyindex.test',
  editor: 'editor@polyindex.test',
} as const;
type Role = keyof typeof ROLES;

// A person on a phone: a phone's browser (touch, its user agent, so the server draws for a
// phone) at an iPhone 12–15's CSS size; and a laptop.
const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const SIZES: readonly { name: 'phone' | 'desktop'; options: BrowserContextOptions; headerMaxPx: number | null }[] = [
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3, userAgent: PHONE_UA }, headerMaxPx: PHONE_HEADER_MAX_PX },
  { name: 'desktop', options: { viewport: { width: 1366, height: 900 } }, headerMaxPx: null },
];

interface PageKind {
  /** The route file(s) of src/pages this row stands for. */
  readonly routes: readonly string[];
  /** The address, or how to find one on the running site (as the admin). */
  readonly path: string | ((page: Page) => Promise<string>);
  /** Status when not 200. */
  readonly status?: number;
  /** Roles left out although the policy lets them in, with the page's own reason. */
  readonly except?: Partial<Record<Role, string>>;
}

const firstLink = (listPath: string, selector: string) => async (page: Page) => {
  await page.goto(listPath);
  const href = await page.locator(selector).first().getAttribute('href');
  if (!href) throw new Error(`no link ${selector} on ${listPath}`);
  return href;
};

const naphtha = feedstocks.find((f) => f.slug === 'Naphtha')!;
/** Six series, two of which cannot become ₹/kg (RMB, the exchange rate itself): the hard case of /compare. */
const SIX_SERIES = ['feedstock.naphtha.japan', 'feedstock.crude.brent', 'historical.ppRaffia.mumbai', 'historical.ppRaffia.cif-ns', 'feedstock.va.china', 'fx.usdinr'];

const PAGE_KINDS: readonly PageKind[] = [
  { routes: ['index.astro'], path: '/' },
  { routes: ['404.astro'], path: '/no-such-page', status: 404 },
  { routes: ['terms.astro'], path: '/terms' },
  { routes: ['privacy.astro'], path: '/privacy' },
  { routes: ['refunds.astro'], path: '/refunds' },
  { routes: ['contact.astro'], path: '/contact' },
  { routes: ['register.astro'], path: '/register' },
  { routes: ['subscription.astro'], path: '/subscription' },
  { routes: ['details.astro'], path: '/details' },
  { routes: ['alerts.astro'], path: '/alerts' },
  { routes: ['account.astro'], path: '/account' },
  { routes: ['account/api-keys.astro'], path: '/account/api-keys' },
  // An invitation link that is not one: the page's refusal (a real invitation's page: seats.spec.ts).
  { routes: ['account/join.astro'], path: '/account/join?invite=not-a-token', status: 400 },
  { routes: ['pricing.astro'], path: '/pricing' },
  { routes: ['developers.astro'], path: '/developers' },
  { routes: ['methodology/index.astro'], path: '/methodology' },
  { routes: ['methodology/[family].astro'], path: '/methodology/indian-city-wise' },
  { routes: ['offline.astro'], path: '/offline' },
  { routes: ['unavailable.astro'], path: '/unavailable', status: 503 },
  { routes: ['unsubscribe.astro'], path: '/unsubscribe?token=not-a-token', status: 400 },
  // News: the lists, an article (public, and a gated one's public page), its full text.
  { routes: ['news/index.astro'], path: '/news' },
  { routes: ['news/page/[page].astro'], path: '/news/page/2' },
  { routes: ['news/type/[...path].astro'], path: '/news/type/blog' },
  { routes: ['news/search.astro'], path: '/news/search?q=PP' },
  { routes: ['news/[slug].astro'], path: '/news/2026-11-21-how-to-read-cif-nhava-sheva-landed-cost' },
  { routes: ['news/[slug].astro'], path: '/news/2026-11-10-pvc-outlook-post-diwali' },
  {
    routes: ['news/[slug]/full.astro'],
    path: '/news/2026-11-10-pvc-outlook-post-diwali/full',
    except: { free: 'a Premium article: its full text sends them to the plans', basic: 'as free', editor: 'as free (no plan)' },
  },
  { routes: ['plant-news.astro'], path: '/plant-news' },
  // Data screens, one of each family.
  { routes: ['crude/index.astro'], path: '/crude' },
  { routes: ['crude/[slug].astro'], path: `/crude/${naphtha.slug}` },
  { routes: ['global-bazaar/index.astro'], path: '/global-bazaar' },
  { routes: ['global-bazaar/[slug].astro'], path: `/global-bazaar/${globalBazaarCountries[0]!.slug}` },
  { routes: ['indian-bazaar/index.astro'], path: '/indian-bazaar' },
  // Each Indian-bazaar screen: city-wise, the exchange rate, the landed-cost calculator, a list of posts.
  ...['citywise', 'customExchangeRate', 'importCalculation', 'rateRevision'].map((slug) => ({ routes: ['indian-bazaar/[slug].astro'], path: `/indian-bazaar/${indianBazaarSections.find((s) => s.slug === slug)!.slug}` })),
  { routes: ['historical-data/index.astro'], path: '/historical-data' },
  { routes: ['historical-data/[slug].astro'], path: `/historical-data/${polymers[0]!.slug}` },
  { routes: ['graph/[polymer].astro'], path: `/graph/${polymers[0]!.slug}` },
  { routes: ['future-trend/index.astro'], path: '/future-trend' },
  { routes: ['future-trend/[slug].astro'], path: `/future-trend/${futureTrendProducts[0]!.slug}` },
  { routes: ['future-trend/[slug]/track-record.astro'], path: `/future-trend/${futureTrendProducts[0]!.slug}/track-record` },
  { routes: ['future-trends.astro'], path: '/future-trends' },
  { routes: ['compare.astro'], path: `/compare?s=${SIX_SERIES.join(',')}&unit=inr_kg` },
  { routes: ['compare.astro'], path: '/compare' },
  // The limited set.
  { routes: ['buy-sell.astro'], path: '/buy-sell' },
  { routes: ['vip-delegations/index.astro'], path: '/vip-delegations' },
  { routes: ['vip-delegations/[year]/index.astro'], path: `/vip-delegations/${vipDelegationYears.at(-1)!}` },
  { routes: ['vip-delegations/[year]/[event].astro'], path: '/vip-delegations/2018/plastindia-gandhinagar' },
  { routes: ['services/index.astro'], path: '/services' },
  { routes: ['services/[slug].astro'], path: `/services/${services[0]!.slug}` },
  // The admin area and the newsroom.
  { routes: ['admin/index.astro'], path: '/admin' },
  { routes: ['admin/prices/index.astro'], path: '/admin/prices' },
  { routes: ['admin/prices/import.astro'], path: '/admin/prices/import' },
  { routes: ['admin/markets.astro'], path: '/admin/markets' },
  { routes: ['admin/banners.astro'], path: '/admin/banners' },
  { routes: ['admin/users/index.astro'], path: '/admin/users' },
  { routes: ['admin/users/[uid].astro'], path: '/admin/users/demo-premium' },
  { routes: ['admin/users/[uid]/api-keys.astro'], path: '/admin/users/demo-premium/api-keys' },
  { routes: ['admin/producer-prices/index.astro'], path: '/admin/producer-prices' },
  { routes: ['admin/forecasts.astro'], path: '/admin/forecasts' },
  { routes: ['admin/audit.astro'], path: '/admin/audit' },
  { routes: ['admin/outbox/index.astro'], path: '/admin/outbox' },
  {
    routes: ['admin/outbox/[file].astro'],
    // A message to the desk puts a mail in the outbox, then its page is the first one listed.
    path: async (page) => {
      const sent = await page.request.post('/api/sendMail', { data: { subject: 'Layout check', content: 'A message for the outbox page.' }, headers: { Origin: baseURL } });
      expect(sent.ok(), await sent.text()).toBe(true);
      return firstLink('/admin/outbox', 'a[href^="/admin/outbox/"]')(page);
    },
  },
  { routes: ['admin/whatsapp.astro'], path: '/admin/whatsapp' },
  { routes: ['admin/posts/index.astro'], path: '/admin/posts' },
  { routes: ['admin/posts/new.astro'], path: '/admin/posts/new' },
  { routes: ['admin/posts/[id].astro'], path: firstLink('/admin/posts', 'a[href^="/admin/posts/"]:not([href$="/new"])') },
];

/** Every page route file (endpoints are .ts and are not pages). */
function pageRoutes(dir = join(import.meta.dirname, '../../src/pages')): string[] {
  const base = join(import.meta.dirname, '../../src/pages');
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'api' ? [] : pageRoutes(path);
    return entry.name.endsWith('.astro') ? [relative(base, path)] : [];
  });
}

/** The demo account's record as the server keeps it, for the policy. */
function factsOf(role: Role, now: Date): SessionFacts | null {
  const email = ROLES[role];
  if (email === null) return null;
  const account = demoAccounts.find((a) => a.email === email)!;
  return { uid: account.uid, record: demoRecord(account, now) };
}

/** Who sees a path: the roles the policy lets in, less the row's exceptions. */
function rolesFor(kind: PageKind, path: string): Role[] {
  const now = new Date();
  const url = new URL(path, baseURL);
  return (Object.keys(ROLES) as Role[]).filter((role) => !kind.except?.[role] && decide(url.pathname, factsOf(role, now), now, url.search).kind === 'allow');
}

test('the check finds every kind of fault, all at once, on a page made to have them', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.setContent(`<!doctype html><html><body style="margin:0;font:16px sans-serif">
    <header class="site-header" style="height:120px"><a href="/">Poly<strong>Index</strong></a>
      <span style="display:inline-block;width:60px">Subscribed · Premium</span></header>
    <p style="font-size:9px">Tiny print</p>
    <svg viewBox="0 0 760 100" style="width:316px"><text x="10" y="50" style="font-size:11px">Nov 26</text></svg>
    <div style="width:300px"><table style="width:520px"><tr><td>wide table</td></tr></table></div>
    <div style="width:200px;height:40px;overflow:hidden"><h2 style="margin:0;font-size:32px">A heading too long for its box</h2></div>
    <form><label><input type="checkbox" style="width:300px"> By e-mail</label></form>
  </body></html>`);
  const findings: LayoutFinding[] = await page.evaluate(measureLayout, { minTextPx: MIN_TEXT_PX, headerMaxPx: PHONE_HEADER_MAX_PX });
  const kinds = new Set(findings.map((f) => f.check));
  expect([...kinds].sort()).toEqual(['clipped-heading', 'header-height', 'header-wraps', 'label-apart', 'sideways-scroll', 'small-text', 'too-wide']);
  expect(findings.find((f) => f.check === 'small-text' && f.element.includes('Nov 26'))?.measurement).toBe('4.6 px (11 px × SVG scale 0.42) < 11 px');
  expect(findings.find((f) => f.check === 'small-text' && f.element.includes('Tiny print'))?.measurement).toBe('9 px < 11 px');
  expect(findings.find((f) => f.check === 'header-height')?.measurement).toBe('ends 120 px below the top > 72 px');
  await context.close();
});

test('every page route file has a row in the layout check', () => {
  const covered = new Set(PAGE_KINDS.flatMap((k) => k.routes));
  expect(pageRoutes().filter((route) => !covered.has(route))).toEqual([]);
});

// Signed-in state once per worker and role: the session cookie of a sign-in through the API.
type Storage = { storageState?: Exclude<BrowserContextOptions['storageState'], undefined> };
const signedIn = new Map<Role, Promise<Storage>>();
function storageOf(role: Role): Promise<Storage> {
  const email = ROLES[role];
  if (email === null) return Promise.resolve({});
  let state = signedIn.get(role);
  if (!state) {
    state = (async () => {
      const context = await playwrightRequest.newContext({ baseURL });
      await signInByApi(context, email);
      const storageState = await context.storageState();
      await context.dispose();
      return { storageState };
    })();
    signedIn.set(role, state);
  }
  return state;
}

/** The worker's kept context of a role at a size (tests/e2e/helpers/keptContexts.ts). */
const viewOf = (kept: KeptContexts, role: Role, size: (typeof SIZES)[number]) =>
  kept.get(`${role} ${size.name}`, async () => ({ ...size.options, reducedMotion: 'reduce', ...(await storageOf(role)) }));

async function resolvePath(kept: KeptContexts, kind: PageKind): Promise<string> {
  if (typeof kind.path === 'string') return kind.path;
  const page = await (await viewOf(kept, 'admin', SIZES[1]!)).newPage();
  try {
    return await kind.path(page);
  } finally {
    await page.close();
  }
}

/**
 * The tab of a kept context that the check's visits use: one page, gone from one address to the
 * next as a person's tab is, watched for CSP violations from its start (tests/e2e/helpers/csp.ts).
 * A new page per visit cost a renderer and the watch's set-up each time: a quarter of a visit on
 * a busy machine. A visit empties the watch's lists first; a report that the page before sends
 * on its way out lands in the next visit's list, so it still fails the check (a closed page's
 * were never seen).
 */
interface Tab {
  readonly page: Page;
  readonly csp: Awaited<ReturnType<typeof watchCsp>>;
}
const tabs = new WeakMap<BrowserContext, Promise<Tab>>();
function tabOf(context: BrowserContext): Promise<Tab> {
  let tab = tabs.get(context);
  if (!tab) {
    tab = (async () => {
      const page = await context.newPage();
      return { page, csp: await watchCsp(page) };
    })();
    tabs.set(context, tab);
    tab.catch(() => tabs.delete(context));
  }
  return tab;
}

/** The findings on a page at a size, opened as `role`, for everyone in `seenBy`. */
async function findingsAt(kept: KeptContexts, role: Role, size: (typeof SIZES)[number], path: string, status: number, seenBy: readonly Role[]): Promise<string[]> {
  const { page, csp } = await tabOf(await viewOf(kept, role, size));
  // Every visit is also the Content-Security-Policy check of its page.
  csp.violations.length = 0;
  csp.console.length = 0;
  const response = await page.goto(path);
  expect(response?.status(), `${path} as ${role}`).toBe(status);
  const asked = new URL(path, baseURL);
  expect(new URL(page.url()).pathname, `${path} as ${role} stays on the page`).toBe(asked.pathname);
  await settle(page);
  const findings: LayoutFinding[] = await page.evaluate(measureLayout, { minTextPx: MIN_TEXT_PX, headerMaxPx: size.headerMaxPx });
  const where = `[${size.name} ${size.options.viewport!.width}×${size.options.viewport!.height}, ${seenBy.join(' = ')}] ${path}`;
  const policy = scriptPolicyProblems(await policyOf(page, response!.headers()['content-security-policy']));
  const violations = [...csp.violations.map((v) => `${v.directive} blocked ${v.blocked} (${v.source})`), ...csp.console];
  return [...findings.map((f) => formatFinding(where, f)), ...[...policy, ...violations].map((problem) => `${where} csp: ${problem}`)];
}

/** The module scripts every full page loads; neither reads who is looking except in the header's session area. */
const SITE_WIDE_SCRIPTS = [/\/_astro\/Base\.astro_astro_type_script_index_\d+_lang\.[\w-]+\.js$/, /\/_astro\/HeaderSession\.astro_astro_type_script_index_\d+_lang\.[\w-]+\.js$/];

/**
 * What the server gives a role for a page: its status, where a redirect sends it and its HTML
 * less what changes on every answer (the CSP nonce). `alike` is false when anything on the page
 * may draw differently for a viewer in the browser: an island, or any script but the site-wide
 * ones and data blocks (JSON-LD).
 */
async function serverViewOf(kept: KeptContexts, role: Role, size: (typeof SIZES)[number], path: string): Promise<{ key: string; alike: boolean }> {
  const response = await (await viewOf(kept, role, size)).request.get(path, { maxRedirects: 0, maxRetries: KEPT_CONNECTION_RETRIES });
  const html = (await response.text()).replace(/ nonce="[^"]*"/g, '');
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
  const runsOwnCode = scripts.some((attributes) => {
    if (/type="application\/(ld\+)?json"/.test(attributes)) return false;
    const src = /src="([^"]*)"/.exec(attributes)?.[1];
    return !src || !SITE_WIDE_SCRIPTS.some((pattern) => pattern.test(src));
  });
  return { key: `${response.status()} ${response.headers()['location'] ?? ''}\n${html}`, alike: !runsOwnCode && !html.includes('<astro-island') };
}

/**
 * The roles of a page at a size in groups that see the same page: the same answer from the
 * server, and nothing on it that draws for a viewer but the header's session area (checked for
 * every role by its own test below). Each group is looked at once, as its first role.
 */
async function groupsOf(kept: KeptContexts, roles: readonly Role[], size: (typeof SIZES)[number], path: string): Promise<Role[][]> {
  const groups = new Map<string, Role[]>();
  for (const role of roles) {
    const view = await serverViewOf(kept, role, size, path);
    const key = view.alike ? view.key : `${role}\n${view.key}`;
    groups.set(key, [...(groups.get(key) ?? []), role]);
  }
  return [...groups.values()];
}

test('roles are looked at once only where the page is the same for them', async ({ keptContexts }) => {
  const everyone = Object.keys(ROLES) as Role[];
  const desktop = SIZES[1]!;
  // The terms: one answer for all, only the site-wide scripts.
  expect(await groupsOf(keptContexts, everyone, desktop, '/terms')).toEqual([everyone]);
  // The home page has a server island (the viewer's ticker): each role is opened.
  expect(await groupsOf(keptContexts, everyone, desktop, '/')).toEqual(everyone.map((role) => [role]));
  // A data screen answers each plan differently (a redirect to the plans, or the screen).
  expect((await groupsOf(keptContexts, ['anonymous', 'free', 'premium', 'admin'], desktop, `/crude/${naphtha.slug}`)).length).toBeGreaterThan(1);
});

/** A page where only the header's session area differs between roles, so the header test opens it as each. */
const HEADER_PAGE = '/terms';

test('the header as each role: the session area (plan, trial banner, sign-in or out, admin) fits at both sizes', async ({ keptContexts }) => {
  test.setTimeout(180_000);
  const findings: string[] = [];
  for (const role of Object.keys(ROLES) as Role[]) {
    for (const size of SIZES) findings.push(...(await findingsAt(keptContexts, role, size, HEADER_PAGE, 200, [role])));
  }
  expect(findings, `layout findings on ${HEADER_PAGE}:\n${findings.join('\n')}`).toEqual([]);
});

for (const kind of PAGE_KINDS) {
  const label = typeof kind.path === 'string' ? kind.path : kind.routes.join(', ');
  // Rows found on the site are checked for the roles that may open their route.
  const roles = rolesFor(kind, typeof kind.path === 'string' ? kind.path : `/${kind.routes[0]!.replace(/\.astro$/, '').replace(/\[[^\]]+\]/g, 'x')}`);
  test(`layout: ${label} (${roles.join(', ')})`, async ({ keptContexts }) => {
    // Each group at two sizes, scrolled through until every island has hydrated: long chart pages on a busy machine.
    test.setTimeout(120_000 + 60_000 * roles.length);
    const path = await resolvePath(keptContexts, kind);
    const findings: string[] = [];
    for (const size of SIZES) {
      for (const group of await groupsOf(keptContexts, roles, size, path)) {
        findings.push(...(await findingsAt(keptContexts, group[0]!, size, path, kind.status ?? 200, group)));
      }
    }
    expect(findings, `layout findings on ${path}:\n${findings.join('\n')}`).toEqual([]);
  });
}
