import { describe, expect, it } from 'vitest';
import { decide, decideFor, entitlementOf, historyReachOf, historyYearsOf, isEditorRole, planInUse, seatPlanOf, renewalDue, requirementOf, seatIsCurrent, withLockedScreen, type SessionFacts } from '../../src/lib/access/policy.ts';
import { accountPlan } from '../../src/lib/account.ts';
import { deliveryRightsOf } from '../../src/lib/delivery/rights.ts';
import { clampFrom, firstSelectableYear, historyOverreach, reachOf } from '../../src/lib/access/history.ts';
import { findScreen, LIMITED_SCREEN_PATHS, lockedNotice, plans, SCREENS } from '../../src/lib/plans.ts';
import { isInTrial, trialEndsOn } from '../../src/lib/trial.ts';
import { isPublicPath } from '../../src/lib/access/publicPaths.ts';

// 10:00 IST on 22 Nov 2026.
const NOW = new Date('2026-11-22T04:30:00Z');
const inAYear = '2027-11-22T00:00:00.000Z';

const user = (record: SessionFacts['record']): SessionFacts => ({ uid: 'u1', record });
const who = {
  anonymous: null,
  free: user({ role: 'user', subscribed: false, createdAt: '23-10-2026' }),
  trial: user({ role: 'user', subscribed: false, createdAt: '22-11-2026' }),
  basic: user({ role: 'user', subscribed: true, plan: 'Basic', createdAt: '01-01-2026', expiresAt: inAYear }),
  standard: user({ role: 'user', subscribed: true, plan: 'Standard', createdAt: '01-01-2026', expiresAt: inAYear }),
  premium: user({ role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2026', expiresAt: inAYear }),
  platinum: user({ role: 'user', subscribed: true, plan: 'Platinum', createdAt: '01-01-2026', expiresAt: inAYear }),
  otherPlan: user({ role: 'user', subscribed: true, plan: 'Enterprise', createdAt: '01-01-2026' }),
  expired: user({ role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2025', expiresAt: '2026-11-01T00:00:00Z' }),
  admin: user({ role: 'admin', subscribed: false, createdAt: '01-01-2020' }),
  /** An editor without a plan (trial over): the limited pages, plus the newsroom's tools. */
  editor: user({ role: 'editor', subscribed: false, createdAt: '01-01-2026' }),
  /** An editor who also pays for Premium. */
  editorPremium: user({ role: 'editor', subscribed: true, plan: 'Premium', createdAt: '01-01-2026', expiresAt: inAYear }),
  noRecord: user(null),
} as const;
type Who = keyof typeof who;

const A = 'allow';
const REG = (path: string) => `redirect ${`/register?next=${encodeURIComponent(path)}`}`;
const SUB = 'redirect /subscription';
const HOME = 'redirect /';
/** The screen each gated page belongs to: the paywall's `?locked=` (the plan table's SCREENS ids). */
const SCREEN_OF: Record<string, string> = {
  '/crude': 'feedstock', '/crude/Naphtha': 'feedstock', '/global-bazaar/USA': 'global-bazaar', '/indian-bazaar/citywise': 'indian-bazaar',
  '/indian-bazaar/companyPrice': 'indian-bazaar', '/indian-bazaar/rateRevision': 'indian-bazaar',
  '/historical-data/PP': 'historical-data', '/future-trend/PP': 'future-trends', '/future-trends': 'future-trends', '/graph/HDPE': 'graphs',
  '/plant-news': 'plant-news', '/compare': 'compare',
};
const SUB_LOCKED = (path: string) => `${SUB}?locked=${SCREEN_OF[path]!}`;
const HOME_LOCKED = (path: string) => `${HOME}?locked=${SCREEN_OF[path]!}`;

function outcome(path: string, visitor: Who): string {
  const d = decide(path, who[visitor], NOW);
  return d.kind === 'allow' ? A : d.kind === 'redirect' ? `redirect ${d.to}` : String(d.status);
}

// One representative path per route family; every row of the access table (docs/architecture.md, "Who sees what").
const publicPages = ['/', '/pricing', '/pricing/', '/register', '/terms', '/privacy', '/refunds', '/contact', '/news', '/news/some-article', '/methodology', '/methodology/feedstocks', '/methodology/indian-city-wise/'];
const limitedPages = ['/buy-sell', '/vip-delegations/2019/k-show', '/vip-delegations', '/services', '/services/events'];
const gatedPages = [
  '/crude', '/crude/Naphtha', '/global-bazaar/USA', '/indian-bazaar/citywise', '/historical-data/PP',
  // Producer list prices and their revisions: data screens, gated as every Indian-bazaar section.
  '/indian-bazaar/companyPrice', '/indian-bazaar/rateRevision',
  '/future-trend/PP', '/future-trends', '/graph/HDPE', '/plant-news',
];
const dataApis = ['/api/feedstock', '/api/citywise', '/api/citywise/mumbai', '/api/internationaloffers', '/api/historicaldata', '/api/blogs'];

describe('pages', () => {
  it.each(publicPages.flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))(
    'public page %s is open to %s',
    (path, visitor) => expect(outcome(path, visitor)).toBe(A),
  );

  const limitedExpect: Record<Who, (p: string) => string> = {
    anonymous: REG, free: () => A, trial: () => A, basic: () => A, standard: () => A, premium: () => A,
    platinum: () => A, otherPlan: () => A, expired: () => A, admin: () => A, editor: () => A, editorPremium: () => A, noRecord: () => A,
  };
  it.each(limitedPages.flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))(
    'limited page %s for %s',
    (path, visitor) => expect(outcome(path, visitor)).toBe(limitedExpect[visitor](path)),
  );

  const gatedExpect: Record<Who, (p: string) => string> = {
    anonymous: REG, free: SUB_LOCKED, trial: () => A, basic: HOME_LOCKED, standard: HOME_LOCKED, premium: () => A,
    platinum: () => A, otherPlan: () => A, expired: SUB_LOCKED, admin: () => A, editor: SUB_LOCKED, editorPremium: () => A, noRecord: SUB_LOCKED,
  };
  it.each(gatedPages.flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))(
    'gated page %s for %s',
    (path, visitor) => expect(outcome(path, visitor)).toBe(gatedExpect[visitor](path)),
  );

  it('keeps the query string in the sign-in return path', () => {
    expect(decide('/crude/Naphtha', null, NOW, '?country=japan')).toEqual({
      kind: 'redirect',
      to: '/register?next=%2Fcrude%2FNaphtha%3Fcountry%3Djapan',
    });
  });

  it.each([
    ['anonymous', REG('/subscription')], ['free', A], ['trial', A], ['noRecord', A], ['expired', A], ['admin', A],
    ['basic', HOME], ['standard', HOME], ['premium', HOME], ['platinum', HOME],
  ] as const)('/subscription for %s → %s', (visitor, expected) => expect(outcome('/subscription', visitor)).toBe(expected));

  it('opens /subscription again to a subscriber in the last 15 days', () => {
    const ending = user({ role: 'user', subscribed: true, plan: 'Premium', createdAt: '01-01-2025', expiresAt: '2026-12-01T00:00:00Z' });
    expect(decide('/subscription', ending, NOW)).toEqual({ kind: 'allow' });
    expect(renewalDue(ending.record, NOW)).toBe(true);
    expect(renewalDue(who.premium.record, NOW)).toBe(false);
  });

  it.each([['anonymous', REG('/details')], ['free', A], ['premium', A]] as const)('/details for %s', (visitor, expected) =>
    expect(outcome('/details', visitor)).toBe(expected),
  );

  // /account: every signed-in visitor runs their own account (profile, plan, renew/upgrade,
  // invoices), whatever the plan; a visitor signs in first.
  it.each([
    ['anonymous', REG('/account')], ['free', A], ['trial', A], ['expired', A], ['noRecord', A], ['basic', A], ['standard', A],
    ['premium', A], ['platinum', A], ['admin', A],
  ] as const)('/account for %s → %s', (visitor, expected) => expect(outcome('/account', visitor)).toBe(expected));

  it.each([
    ['anonymous', '401'], ['free', A], ['expired', A], ['basic', A], ['premium', A], ['platinum', A], ['admin', A],
  ] as const)('/api/account/documents/{id} for %s → %s (the handler serves the owner only)', (visitor, expected) =>
    expect(outcome('/api/account/documents/PI-26-27-00001', visitor)).toBe(expected),
  );

  it.each([
    ['anonymous', REG('/admin')], ['free', '403'], ['trial', '403'], ['premium', '403'], ['platinum', '403'], ['admin', A],
  ] as const)('/admin for %s', (visitor, expected) => expect(outcome('/admin', visitor)).toBe(expected));

  it('never redirects /, /register or a redirect target into a loop', () => {
    for (const visitor of Object.keys(who) as Who[]) {
      for (const start of ['/', '/register']) expect(outcome(start, visitor)).toBe(A);
      for (const path of [...gatedPages, ...limitedPages, '/subscription', '/details']) {
        const first = decide(path, who[visitor], NOW);
        if (first.kind !== 'redirect') continue;
        const target = new URL(first.to, 'http://x').pathname;
        expect(outcome(target, visitor), `${visitor}: ${path} → ${target}`).toBe(A);
      }
    }
  });
});

describe('data API', () => {
  const apiExpect: Record<Who, string> = {
    anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A,
    otherPlan: A, expired: '403', admin: A, editor: '403', editorPremium: A, noRecord: '403',
  };
  it.each(dataApis.flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))(
    '%s for %s',
    (path, visitor) => expect(outcome(path, visitor)).toBe(apiExpect[visitor]),
  );

  it('answers JSON statuses, never redirects', () => {
    for (const visitor of Object.keys(who) as Who[]) {
      for (const path of [...dataApis, '/api/admin/users', '/api/makePayment']) {
        expect(decide(path, who[visitor], NOW).kind).not.toBe('redirect');
      }
    }
  });

  it.each([
    ['/api/session', 'public'], ['/api/health', 'public'], ['/api/auth/session', 'public'], ['/api/carousels/', 'public'],
    ['/api/payments/webhook', 'public'], ['/api/sendMail', 'public'], ['/api/makePayment', 'signedIn'],
    ['/api/payments/verify', 'signedIn'], ['/api/admin/prices/import', 'admin'], ['/api/feedstock', 'full'],
    ['/api/export/some-series.csv', 'full'],
  ] as const)('%s requires %s', (path, requirement) => expect(requirementOf(path)).toBe(requirement));

  it.each([
    ['/news', 'public'], ['/news/page/2', 'public'], ['/news/type/future-trend/PP/page/2', 'public'], ['/news/some-article', 'public'],
    ['/news/some-article/full', 'limited'], ['/news/some-article/full/', 'limited'], ['/news/full', 'public'], ['/news/search', 'public'], ['/news/images/x.webp', 'public'], ['/news/a/b/full', 'public'], ['/rss.xml', 'public'], ['/robots.txt', 'public'],
    ['/api/enquiries/contact', 'public'], ['/_image', 'public'],
    // Server islands are public by name only: the home page's headlines; any other island is `full` until given a row.
    ['/_server-islands/LatestHeadlines', 'public'], ['/_server-islands/HeaderPlan', 'full'], ['/_server-islands', 'full'], ['/_server-islands/LatestHeadlines/x', 'full'],
  ] as const)('news path %s requires %s', (path, requirement) => expect(requirementOf(path)).toBe(requirement));

  it("serves the site's own images on demand to everyone (they appear on public and limited pages)", () => {
    for (const visitor of ['anonymous', 'free', 'basic'] as const) expect(outcome('/_image', visitor)).toBe(A);
  });

  it('leaves a premium or limited post\'s full text to the page, which asks with the post\'s own access', () => {
    // The policy only requires a sign-in (the page knows the post's access: decideFor).
    expect(outcome('/news/some-article/full', 'anonymous')).toBe(REG('/news/some-article/full'));
    for (const visitor of ['free', 'basic', 'premium', 'editor'] as const) expect(outcome('/news/some-article/full', visitor)).toBe(A);
  });

  it('keeps the admin API to admins', () => {
    expect(outcome('/api/admin/users', 'premium')).toBe('403');
    expect(outcome('/api/admin/users', 'anonymous')).toBe('401');
    expect(outcome('/api/admin/users', 'admin')).toBe(A);
  });
});

// The legacy client reads each screen's posts through /api/blogs?type=…: the limited sections'
// types (buy-sell, VIP delegations, services) answer whoever may open those pages.
describe('/api/blogs by type', () => {
  const blogs = (type: string | null, visitor: Who): string => {
    const d = decide('/api/blogs', who[visitor], NOW, type === null ? '' : `?type=${encodeURIComponent(type)}&year=2026`);
    return d.kind === 'allow' ? A : d.kind === 'redirect' ? `redirect ${d.to}` : String(d.status);
  };
  const limitedTypes = ['buy-sell', 'BuySell', 'vip-delegations', 'VipDelegations', 'services/events', 'press-release', 'services/whatsapp-chatbot'];
  const fullTypes = ['plant-news', 'PlantNews', 'PP', 'future-trend/PP', 'India', 'global-bazaar/India', 'rateRevision', 'blog', 'daily-tweet', 'no-such-type', null];
  const limitedExpect: Record<Who, string> = {
    anonymous: '401', free: A, trial: A, basic: A, standard: A, premium: A, platinum: A, otherPlan: A, expired: A, admin: A,
    editor: A, editorPremium: A, noRecord: A,
  };
  const fullExpect: Record<Who, string> = {
    anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, otherPlan: A, expired: '403', admin: A,
    editor: '403', editorPremium: A, noRecord: '403',
  };
  it.each(limitedTypes.flatMap((t) => (Object.keys(who) as Who[]).map((w) => [t, w] as const)))('type %s (a limited section) for %s', (type, visitor) =>
    expect(blogs(type, visitor)).toBe(limitedExpect[visitor]),
  );
  it.each(fullTypes.flatMap((t) => (Object.keys(who) as Who[]).map((w) => [t, w] as const)))('type %s (data) for %s', (type, visitor) =>
    expect(blogs(type, visitor)).toBe(fullExpect[visitor]),
  );
  it.each([
    ['?type=buy-sell', 'limited'], ['?type=buy-sell&type=PP', 'limited'], ['?type=PP', 'full'], ['', 'full'], ['?type=', 'full'], ['?type=%E2%80%A6', 'full'],
  ] as const)('search %s requires %s', (search, requirement) => expect(requirementOf('/api/blogs', search)).toBe(requirement));
});

// The editor role (granted by an admin): posts and banners, nothing else of the admin area.
describe('the editor role', () => {
  const editorPages = ['/admin/posts', '/admin/posts/new', '/admin/posts/some-id', '/admin/banners', '/admin/forecasts'];
  const adminOnlyPages = ['/admin', '/admin/whatsapp', '/admin/users', '/admin/users/demo-free', '/admin/prices', '/admin/prices/import', '/admin/markets', '/admin/producer-prices', '/admin/outbox', '/admin/audit'];
  const editorApis = ['/api/admin/posts', '/api/admin/posts/some-id', '/api/admin/posts/preview', '/api/admin/posts/some-id/cover', '/api/admin/banners', '/api/admin/banners/b1/move', '/api/admin/banners/b1/remove', '/api/admin/forecasts', '/api/admin/forecasts/desk.fx.usdinr.1w.2026-11-20.ab12cd34'];
  const adminOnlyApis = ['/api/admin/users', '/api/admin/users/u1/role', '/api/admin/users/u1/grant', '/api/admin/prices/import', '/api/admin/prices/fx.usdinr/set', '/api/admin/citywise/mumbai/set', '/api/admin/offers/USA/set', '/api/admin/producer-prices', '/api/admin/producer-prices/import', '/api/admin/audit'];
  const pageExpect: Record<Who, (p: string) => string> = {
    anonymous: REG, free: () => '403', trial: () => '403', basic: () => '403', standard: () => '403', premium: () => '403', platinum: () => '403',
    otherPlan: () => '403', expired: () => '403', admin: () => A, editor: () => A, editorPremium: () => A, noRecord: () => '403',
  };
  const apiExpect: Record<Who, string> = {
    anonymous: '401', free: '403', trial: '403', basic: '403', standard: '403', premium: '403', platinum: '403', otherPlan: '403', expired: '403',
    admin: A, editor: A, editorPremium: A, noRecord: '403',
  };
  it.each(editorPages.flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))('editor page %s for %s', (path, visitor) =>
    expect(outcome(path, visitor)).toBe(pageExpect[visitor](path)),
  );
  it.each(editorApis.flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))('editor API %s for %s', (path, visitor) =>
    expect(outcome(path, visitor)).toBe(apiExpect[visitor]),
  );
  it.each(adminOnlyPages.flatMap((p) => ['editor', 'editorPremium', 'admin', 'premium'].map((w) => [p, w as Who] as const)))('admin-only page %s for %s', (path, visitor) =>
    expect(outcome(path, visitor)).toBe(visitor === 'admin' ? A : '403'),
  );
  it.each(adminOnlyApis.flatMap((p) => ['editor', 'editorPremium', 'admin', 'premium'].map((w) => [p, w as Who] as const)))('admin-only API %s for %s', (path, visitor) =>
    expect(outcome(path, visitor)).toBe(visitor === 'admin' ? A : '403'),
  );
  it('says who is refused in the JSON message', () => {
    expect(decide('/api/admin/posts', who.premium, NOW)).toMatchObject({ status: 403, message: 'Editors and administrators only.' });
    expect(decide('/api/admin/users', who.editor, NOW)).toMatchObject({ status: 403, message: 'Administrators only.' });
  });
  it('gives an editor what their plan gives elsewhere', () => {
    expect(outcome('/crude/Naphtha', 'editor')).toBe(SUB_LOCKED('/crude/Naphtha'));
    expect(outcome('/buy-sell', 'editor')).toBe(A);
    expect(outcome('/crude/Naphtha', 'editorPremium')).toBe(A);
    expect(isEditorRole('editor')).toBe(true);
    expect(isEditorRole('admin')).toBe(true);
    expect(isEditorRole('user')).toBe(false);
    expect(isEditorRole(undefined)).toBe(false);
  });
  it('decides a post\'s full text by its access (decideFor)', () => {
    const full = (visitor: Who, requirement: 'public' | 'limited' | 'full') => {
      const d = decideFor(requirement, '/news/a/full', who[visitor], NOW);
      return d.kind === 'allow' ? A : d.kind === 'redirect' ? `redirect ${d.to}` : String(d.status);
    };
    expect(full('anonymous', 'limited')).toBe(REG('/news/a/full'));
    expect(full('free', 'limited')).toBe(A);
    expect(full('basic', 'limited')).toBe(A);
    expect(full('free', 'full')).toBe(SUB);
    expect(full('basic', 'full')).toBe(HOME);
    expect(full('premium', 'full')).toBe(A);
    expect(full('trial', 'full')).toBe(A);
  });
});

describe('installable app', () => {
  // The manifest, the service worker script, the icons and the offline page: every visitor
  // (Chrome fetches them without a session), never a redirect, never indexed as pages.
  const appShell = [
    '/manifest.webmanifest', '/sw.js', '/offline', '/offline/',
    '/icons/icon-192.png', '/icons/icon-512.png', '/icons/maskable-192.png', '/icons/maskable-512.png', '/icons/apple-touch-icon.png',
  ];
  it.each(appShell.flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))('%s is open to %s', (path, visitor) =>
    expect(outcome(path, visitor)).toBe(A),
  );

  it.each(appShell)('%s requires nothing', (path) => expect(requirementOf(path)).toBe('public'));

  it.each([
    ['/icons/other.png', 'full'], ['/icons', 'full'], ['/sw.js.map', 'full'], ['/offline/extra', 'full'], ['/manifest.json', 'full'],
  ] as const)('a look-alike %s stays %s', (path, requirement) => expect(requirementOf(path)).toBe(requirement));

  it('keeps the app shell out of the sitemap (it is not a page to index)', () => {
    for (const path of appShell) expect(isPublicPath(path), path).toBe(false);
  });
});

describe('price delivery (issue 13)', () => {
  // What /alerts offers follows the plan (the endpoints answer 403 with the reason); the policy only asks for a sign-in.
  const signedInPage: Record<Who, string> = {
    anonymous: REG('/alerts'), free: A, trial: A, basic: A, standard: A, premium: A, platinum: A, otherPlan: A, expired: A, admin: A, noRecord: A,
    editor: A, editorPremium: A,
  };
  it.each(Object.keys(who) as Who[])('/alerts for %s', (visitor) => expect(outcome('/alerts', visitor)).toBe(signedInPage[visitor]));

  it.each(['/api/alerts', '/api/alerts/settings', '/api/alerts/al_0123', '/api/alerts/whatsapp', '/api/alerts/whatsapp/verify', '/api/alerts/preview', '/api/alerts/price', '/api/alerts/revisions'].flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))(
    '%s for %s: signed in, JSON 401 otherwise',
    (path, visitor) => expect(outcome(path, visitor)).toBe(visitor === 'anonymous' ? '401' : A),
  );

  it.each([
    // Exactly the job endpoints are public (their bearer secret is their authority); nothing else under /api/jobs is.
    ['/api/whatsapp/webhook', 'public'], ['/api/jobs/daily-update', 'public'], ['/api/jobs/daily-update/', 'public'], ['/api/jobs/anything', 'full'], ['/api/jobs', 'full'], ['/api/jobs/daily-update/x', 'full'], ['/api/unsubscribe', 'public'],
    ['/unsubscribe', 'public'], ['/alerts', 'signedIn'], ['/alerts/', 'signedIn'], ['/api/alerts/settings', 'signedIn'],
    ['/admin/whatsapp', 'admin'], ['/api/admin/whatsapp/send', 'admin'], ['/api/whatsapp/other', 'full'],
  ] as const)('%s requires %s', (path, requirement) => expect(requirementOf(path)).toBe(requirement));

  it.each(Object.keys(who) as Who[])('the webhook, the job endpoint and unsubscribe are open to %s (each checks its own secret)', (visitor) => {
    for (const path of ['/api/whatsapp/webhook', '/api/jobs/daily-update', '/api/unsubscribe', '/unsubscribe']) expect(outcome(path, visitor)).toBe(A);
  });

  it.each([['anonymous', REG('/admin/whatsapp')], ['free', '403'], ['premium', '403'], ['platinum', '403'], ['admin', A]] as const)(
    '/admin/whatsapp for %s',
    (visitor, expected) => expect(outcome('/admin/whatsapp', visitor)).toBe(expected),
  );

  it('the unsubscribe page is not a public (prerendered, sitemap) page', () => {
    expect(isPublicPath('/unsubscribe')).toBe(false);
  });
});

describe('comparisons, saved views and the home page (issue 16)', () => {
  const visitors = ['anonymous', 'free', 'trial', 'basic', 'standard', 'premium', 'platinum', 'expired', 'admin'] as const;
  const table: Record<string, Record<(typeof visitors)[number], string>> = {
    '/compare': { anonymous: REG('/compare'), free: SUB_LOCKED('/compare'), trial: A, basic: HOME_LOCKED('/compare'), standard: HOME_LOCKED('/compare'), premium: A, platinum: A, expired: SUB_LOCKED('/compare'), admin: A },
    '/api/series': { anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, expired: '403', admin: A },
    '/api/series/export.xlsx': { anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, expired: '403', admin: A },
    '/api/views': { anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, expired: '403', admin: A },
    '/api/views/abc/remove': { anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, expired: '403', admin: A },
    // Everyone: figures for the plans that open the data, names and directions for the others (the endpoint decides).
    '/api/home/ticker': { anonymous: A, free: A, trial: A, basic: A, standard: A, premium: A, platinum: A, expired: A, admin: A },
    '/api/home/teaser': { anonymous: A, free: A, trial: A, basic: A, standard: A, premium: A, platinum: A, expired: A, admin: A },
  };
  it.each(Object.keys(table).flatMap((path) => visitors.map((visitor) => [path, visitor] as const)))('%s for %s', (path, visitor) =>
    expect(outcome(path, visitor)).toBe(table[path]![visitor]),
  );

  it.each([
    ['/compare', 'full'], ['/api/series', 'full'], ['/api/series/export.png', 'full'], ['/api/views', 'full'], ['/api/views/x/remove', 'full'],
    ['/api/home/ticker', 'public'], ['/api/home/ticker/x', 'full'], ['/api/home/teaser', 'public'], ['/api/home/teaser/x', 'full'],
  ] as const)('%s requires %s', (path, requirement) => expect(requirementOf(path)).toBe(requirement));
});

describe('entitlement', () => {
  it.each([
    ['anonymous', 'anonymous'], ['free', 'none'], ['trial', 'full'], ['basic', 'limited'], ['standard', 'limited'],
    ['premium', 'full'], ['platinum', 'full'], ['otherPlan', 'full'], ['expired', 'none'], ['admin', 'admin'], ['noRecord', 'none'],
    ['editor', 'none'], ['editorPremium', 'full'],
  ] as const)('%s → %s', (visitor, expected) => expect(entitlementOf(who[visitor], NOW)).toBe(expected));
});

describe('trial', () => {
  const today = '2026-11-22';
  it.each([
    ['22-11-2026', true, 'created today'],
    ['21-11-2026', true, '1 day ago'],
    ['20-11-2026', false, '2 days ago'],
    ['01-01-2020', false, 'long ago'],
    ['2026-11-22', false, 'malformed (ISO instead of DD-MM-YYYY)'],
    ['31-11-2026', false, 'not a real date'],
    ['', false, 'empty'],
  ])('createdAt %s → %s (%s)', (createdAt, expected) =>
    expect(isInTrial({ role: 'user', subscribed: false, createdAt }, today)).toBe(expected),
  );

  it('is false for a subscribed user and null for an admin or a missing record', () => {
    expect(isInTrial({ role: 'user', subscribed: true, createdAt: '22-11-2026' }, today)).toBe(false);
    expect(isInTrial({ role: 'admin', subscribed: false, createdAt: '22-11-2026' }, today)).toBeNull();
    expect(isInTrial(null, today)).toBeNull();
  });

  it('counts calendar days in India: 23:00 IST yesterday is still yesterday', () => {
    // Created 21 Nov; at 00:10 IST on 23 Nov (18:40 UTC on 22 Nov) two whole days have passed.
    const late = new Date('2026-11-22T18:40:00Z');
    expect(entitlementOf(user({ role: 'user', subscribed: false, createdAt: '21-11-2026' }), late)).toBe('none');
    const earlier = new Date('2026-11-22T18:00:00Z'); // 23:30 IST on 22 Nov
    expect(entitlementOf(user({ role: 'user', subscribed: false, createdAt: '21-11-2026' }), earlier)).toBe('full');
  });

  it('ends on the day two days after creation', () => {
    expect(trialEndsOn({ createdAt: '30-12-2026' })).toBe('2027-01-01');
    expect(trialEndsOn({ createdAt: 'junk' })).toBeNull();
  });
});

describe('forecasts (issue 23): the track record is public, the open calls are not', () => {
  const everyone = Object.keys(who) as Who[];
  const gatedExpect: Record<Who, string> = {
    anonymous: REG('/future-trend/PP'), free: `${SUB}?locked=future-trends`, trial: A, basic: `${HOME}?locked=future-trends`, standard: `${HOME}?locked=future-trends`, premium: A,
    platinum: A, otherPlan: A, expired: `${SUB}?locked=future-trends`, admin: A, editor: `${SUB}?locked=future-trends`, editorPremium: A, noRecord: `${SUB}?locked=future-trends`,
  };

  it.each(everyone.flatMap((w) => ['/future-trend/PP/track-record', '/future-trend/PP/track-record/', '/future-trend/nylon-6-nylon-66/track-record'].map((p) => [p, w] as const)))(
    '%s is open to %s',
    (path, visitor) => expect(outcome(path, visitor)).toBe(A),
  );

  it.each(everyone)('the product page with its open calls is for full access only: %s', (visitor) => {
    expect(outcome('/future-trend/PP', visitor)).toBe(gatedExpect[visitor]);
    expect(decide('/future-trend/PP', who[visitor], NOW, '?horizon=3m').kind).toBe(gatedExpect[visitor] === A ? 'allow' : 'redirect');
  });

  it.each([
    ['/future-trend/PP/track-record', 'public'],
    ['/future-trend/PP', 'full'],
    ['/indian-bazaar/pricePrediction', 'full'],
    ['/future-trend/PP/track-record/extra', 'full'],
    ['/future-trend/PP/track-records', 'full'],
    ['/future-trend/track-record', 'full'],
    ['/future-trend/PP/x/track-record', 'full'],
    ['/api/future-trend/PP/track-record', 'full'],
  ] as const)('%s requires %s', (path, requirement) => expect(requirementOf(path)).toBe(requirement));

  it('counts the track record, and only it, as a public path', () => {
    expect(isPublicPath('/future-trend/PP/track-record')).toBe(true);
    expect(isPublicPath('/future-trend/PP')).toBe(false);
  });
});

// Issue 21: the paywall says why (`?locked=` names the screen; the target shows the plan table's notice).
describe('paywalls that say why', () => {
  it('keeps the original targets and adds the screen that was closed, from the plan table only', () => {
    expect(decide('/crude/Naphtha', who.basic, NOW, '?country=japan&year=2024')).toEqual({ kind: 'redirect', to: '/?locked=feedstock' });
    expect(decide('/crude/Naphtha', who.free, NOW)).toEqual({ kind: 'redirect', to: '/subscription?locked=feedstock' });
    // A page that is no screen of the table (a gated post's full text): the bare target.
    expect(decideFor('full', '/news/a/full', who.basic, NOW)).toEqual({ kind: 'redirect', to: '/' });
    expect(withLockedScreen('/', '/no-such-page')).toBe('/');
    expect(withLockedScreen('/subscription', '/graph/PP')).toBe('/subscription?locked=graphs');
  });

  it('never puts the request\'s own text in the target (no open redirect, nothing reflected)', () => {
    for (const search of ['?locked=https://evil.example', '?next=//evil.example', '?locked=%3Cscript%3E']) {
      const d = decide('/crude/Naphtha', who.basic, NOW, search);
      expect(d).toEqual({ kind: 'redirect', to: '/?locked=feedstock' });
    }
  });

  it.each(Object.keys(who) as Who[])('lets %s open the notices\' pages with any ?locked= (they are public, or the original rule applies)', (visitor) => {
    for (const search of ['?locked=feedstock', '?locked=<script>alert(1)</script>', '?locked=', '?locked=feedstock&locked=compare']) {
      expect(decide('/', who[visitor], NOW, search)).toEqual({ kind: 'allow' });
      expect(decide('/pricing', who[visitor], NOW, search)).toEqual({ kind: 'allow' });
    }
    // /subscription keeps the original's rule whatever the query: a subscriber goes home; an
    // anonymous visitor signs in and comes back to the same address (the chosen plan kept).
    const subscription = decide('/subscription', who[visitor], NOW, '?locked=feedstock&plan=Premium');
    if (visitor === 'anonymous') expect(subscription).toEqual({ kind: 'redirect', to: REG('/subscription?locked=feedstock&plan=Premium').slice('redirect '.length) });
    else expect(subscription).toEqual(decide('/subscription', who[visitor], NOW));
  });

  it('words every notice from the table: the screen and the plans that open it', () => {
    expect(lockedNotice(findScreen('feedstock')!)).toBe('Feedstock charts (crude, naphtha, olefins, monomers) are in Premium and Platinum.');
    expect(lockedNotice(findScreen('compare')!)).toBe('Comparisons and exports (CSV, Excel, images) are in Premium and Platinum.');
    expect(findScreen('<script>')).toBeUndefined();
    expect(findScreen('toString')).toBeUndefined();
  });

  it('reads the limited set from the plan table, and every redirect target of a gated page is a screen', () => {
    expect(LIMITED_SCREEN_PATHS).toEqual(['/buy-sell', '/vip-delegations', '/services']);
    for (const path of gatedPages) expect(SCREENS.some((s) => s.id === SCREEN_OF[path]), path).toBe(true);
    expect(requirementOf('/pricing')).toBe('public');
    expect(isPublicPath('/pricing')).toBe(true);
  });
});

// Issue 21: history depth (the plan table's historyYears) holds on the data API.
describe('history depth', () => {
  // 2026: Premium (5 years) opens 2021 on, Platinum (12) 2014 on; a trial is Premium's.
  it.each([
    ['anonymous', 0], ['free', 0], ['expired', 0], ['basic', 0], ['standard', 0],
    ['trial', 5], ['premium', 5], ['editorPremium', 5], ['platinum', 12], ['otherPlan', null], ['admin', null],
  ] as const)('%s reaches %s years back', (visitor, years) => expect(historyYearsOf(who[visitor], NOW)).toBe(years));

  const api = (visitor: Who, path: string, search: string) => {
    const d = decide(path, who[visitor], NOW, search);
    return d.kind === 'allow' ? A : d.kind === 'deny' ? `${d.status} ${d.code}${d.field ? ` ${d.field}` : ''}` : `redirect ${d.to}`;
  };
  it.each([
    ['/api/feedstock', '?name=Crude&year=2021', 'premium', A],
    ['/api/feedstock', '?name=Crude&year=2020', 'premium', '403 history_limit year'],
    ['/api/feedstock', '?name=Crude&year=2020', 'trial', '403 history_limit year'],
    ['/api/feedstock', '?name=Crude&year=2020', 'platinum', A],
    ['/api/feedstock', '?name=Crude&year=2014', 'platinum', A],
    ['/api/feedstock', '?name=Crude&year=2013', 'platinum', '403 history_limit year'],
    ['/api/feedstock', '?name=Crude&year=1990', 'admin', A],
    ['/api/feedstock', '?name=Crude&year=1990', 'otherPlan', A],
    ['/api/feedstock', '?name=Crude', 'premium', A],
    ['/api/feedstock', '?name=Crude&year=abc', 'premium', A], // the endpoint's own 400
    ['/api/feedstock', '?name=Crude&year=2020', 'basic', '403 forbidden'], // no data at all: the plan row, first
    ['/api/feedstock', '?name=Crude&year=2020', 'anonymous', '401 unauthenticated'],
    ['/api/historicaldata', '?polymer=ppRaffia&year=2019', 'premium', '403 history_limit year'],
    ['/api/internationaloffers', '?country=USA&month=3&year=2018', 'premium', '403 history_limit year'],
    ['/api/internationaloffers', '?country=USA&month=3&year=2022', 'premium', A],
    ['/api/citywise/mumbai', '?date=2020-12-31', 'premium', '403 history_limit date'],
    ['/api/citywise/mumbai', '?date=2021-01-01', 'premium', A],
    ['/api/series', '?ids=fx.usdinr&from=2020-06-01&to=2026-01-01', 'premium', '403 history_limit from'],
    ['/api/series', '?ids=fx.usdinr&from=2021-06-01&to=2026-01-01', 'premium', A],
    ['/api/series/export.csv', '?ids=fx.usdinr&from=2015-06-01&to=2026-01-01', 'premium', '403 history_limit from'],
    ['/api/series/export.csv', '?ids=fx.usdinr&from=2015-06-01&to=2026-01-01', 'platinum', A],
    ['/api/blogs', '?type=PP&year=2015', 'premium', A], // news, not prices
  ] as const)('%s%s for %s → %s', (path, search, visitor, expected) => expect(api(visitor, path, search)).toBe(expected));

  it('says how far the plan reaches and which plans reach further', () => {
    expect(decide('/api/feedstock', who.premium, NOW, '?name=Crude&year=2016')).toEqual({
      kind: 'deny',
      status: 403,
      code: 'history_limit',
      field: 'year',
      message: 'Your plan opens prices from 2021. Older years come with Platinum.',
    });
    expect(decide('/api/feedstock', who.platinum, NOW, '?name=Crude&year=2010')).toMatchObject({ message: 'Your plan opens prices from 2014.' });
  });

  it('gives the screens the same reach: year selectors start at it, ranges are clamped to it', () => {
    const premium = historyReachOf(who.premium, NOW);
    expect(premium).toEqual({ years: 5, oldestYear: 2021, earliest: '2021-01-01' });
    expect(firstSelectableYear(premium, 2010)).toBe(2021);
    expect(firstSelectableYear(premium, 2023)).toBe(2023);
    expect(firstSelectableYear(premium, undefined)).toBe(2021);
    expect(firstSelectableYear(historyReachOf(who.admin, NOW), 2010)).toBe(2010);
    expect(clampFrom(premium, '1990-01-01')).toBe('2021-01-01');
    expect(clampFrom(premium, '2024-05-01')).toBe('2024-05-01');
    expect(reachOf(null, '2026-11-22')).toEqual({ years: null, oldestYear: null, earliest: null });
    expect(historyOverreach('/api/feedstock', '?year=2020', reachOf(null, '2026-11-22'))).toBeNull();
  });

  it('reaches back the whole archive on the top plan and at least five years on every plan with screens', () => {
    for (const plan of plans) expect(plan.access === 'full' ? plan.historyYears >= 5 : plan.historyYears === 0, plan.id).toBe(true);
  });
});

describe('the data feed (issue 25): a key or a cookie, by the plan at the moment of the request', () => {
  const feedRoutes = ['/api/v1/catalog', '/api/v1/catalog.csv', '/api/v1/latest', '/api/v1/latest.csv', '/api/v1/series/feedstock.naphtha.japan', '/api/v1/series/fx.usdinr.csv', '/api/v1/series/x/'];
  // A key acts for its owner: the gate decides for the owner's session exactly as for a cookie.
  const expected: Record<Who, string> = {
    anonymous: '401', free: '403', trial: '403', basic: '403', standard: '403', premium: '403', platinum: A, otherPlan: '403', expired: '403', admin: A, editor: '403', editorPremium: '403', noRecord: '403',
  };
  it.each(feedRoutes.flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))('%s for %s', (path, visitor) => {
    expect(outcome(path, visitor)).toBe(expected[visitor]);
  });

  it('is the plan table\'s dataFeed that opens it, nothing else', () => {
    for (const plan of plans) {
      const session = user({ role: 'user', subscribed: true, plan: plan.id, createdAt: '01-01-2026', expiresAt: inAYear });
      expect(decide('/api/v1/catalog', session, NOW).kind, plan.id).toBe(plan.dataFeed ? 'allow' : 'deny');
    }
  });

  it('a Platinum plan that lapsed a second ago is refused, and the refusal names the plan that includes the feed', () => {
    const lapsed = user({ role: 'user', subscribed: true, plan: 'Platinum', createdAt: '01-01-2026', expiresAt: new Date(NOW.getTime() - 1000).toISOString() });
    const d = decide('/api/v1/latest', lapsed, NOW);
    expect(d).toMatchObject({ kind: 'deny', status: 403, code: 'forbidden', message: expect.stringContaining('Platinum') });
  });

  it('the description is public; the key page is for everyone signed in; /developers is a public page', () => {
    for (const w of Object.keys(who) as Who[]) expect(outcome('/api/v1/openapi.json', w)).toBe(A);
    expect(requirementOf('/account/api-keys')).toBe('signedIn');
    expect(outcome('/account/api-keys', 'anonymous')).toBe(REG('/account/api-keys'));
    for (const w of ['free', 'basic', 'premium', 'platinum', 'admin'] as const) expect(outcome('/account/api-keys', w)).toBe(A);
    expect(isPublicPath('/developers')).toBe(true);
    expect(requirementOf('/api/v1')).toBe('feed');
    expect(requirementOf('/admin/users/u1/api-keys')).toBe('admin');
  });
});

describe('team seats (issue 21): a colleague uses the owner\'s plan while the seat is held and the owner\'s plan is current', () => {
  const owner = (record: NonNullable<SessionFacts['record']>) => ({ ownerUid: 'owner', ownerEmail: 'owner@firm.test', owner: record });
  const platinumOwner = owner({ subscribed: true, plan: 'Platinum', expiresAt: inAYear });
  const colleague = (seat: SessionFacts['seat'], record: SessionFacts['record'] = { role: 'user', subscribed: false, createdAt: '01-01-2026' }): SessionFacts => ({ uid: 'c1', record, seat });
  const seated = {
    /** No plan of their own, trial over, a seat on a current Platinum plan. */
    onPlatinum: colleague(platinumOwner),
    /** The owner's plan lapsed a second ago. */
    ownerLapsed: colleague(owner({ subscribed: true, plan: 'Platinum', expiresAt: new Date(NOW.getTime() - 1000).toISOString() })),
    /** The owner is no longer subscribed (revoked, refunded). */
    ownerUnsubscribed: colleague(owner({ subscribed: false, plan: 'Platinum', expiresAt: inAYear })),
    /** A seat record left on a plan with one seat (the owner changed plan): gives nothing. */
    ownerOneSeat: colleague(owner({ subscribed: true, plan: 'Premium', expiresAt: inAYear })),
    /** The owner's record is gone. */
    ownerGone: colleague({ ownerUid: 'owner', ownerEmail: null, owner: null }),
    /** Removed: the session has no seat any more. */
    removed: colleague(null),
    /** Their own Basic plan and a Platinum seat: the dearer plan counts. */
    basicOnPlatinum: colleague(platinumOwner, { role: 'user', subscribed: true, plan: 'Basic', createdAt: '01-01-2026', expiresAt: inAYear }),
  };
  type Seated = keyof typeof seated;
  const verdict = (path: string, s: Seated): string => {
    const d = decide(path, seated[s], NOW);
    return d.kind === 'allow' ? A : d.kind === 'redirect' ? `redirect ${d.to}` : String(d.status);
  };

  it.each([
    // A Premium screen, a data API, the data feed, comparisons, a limited page.
    ['/crude/Naphtha', { onPlatinum: A, ownerLapsed: SUB_LOCKED('/crude/Naphtha'), ownerUnsubscribed: SUB_LOCKED('/crude/Naphtha'), ownerOneSeat: SUB_LOCKED('/crude/Naphtha'), ownerGone: SUB_LOCKED('/crude/Naphtha'), removed: SUB_LOCKED('/crude/Naphtha'), basicOnPlatinum: A }],
    ['/api/feedstock', { onPlatinum: A, ownerLapsed: '403', ownerUnsubscribed: '403', ownerOneSeat: '403', ownerGone: '403', removed: '403', basicOnPlatinum: A }],
    ['/api/v1/latest', { onPlatinum: A, ownerLapsed: '403', ownerUnsubscribed: '403', ownerOneSeat: '403', ownerGone: '403', removed: '403', basicOnPlatinum: A }],
    ['/api/series', { onPlatinum: A, ownerLapsed: '403', ownerUnsubscribed: '403', ownerOneSeat: '403', ownerGone: '403', removed: '403', basicOnPlatinum: A }],
    // The limited set is open to everyone signed in, seat or not.
    ['/buy-sell', { onPlatinum: A, ownerLapsed: A, ownerUnsubscribed: A, ownerOneSeat: A, ownerGone: A, removed: A, basicOnPlatinum: A }],
  ] as const)('%s', (path, expected) => {
    for (const s of Object.keys(seated) as Seated[]) expect(verdict(path, s), s).toBe(expected[s]);
  });

  it('the plan in use, its history depth and its delivery are the owner\'s', () => {
    expect(planInUse(seated.onPlatinum, NOW)).toEqual({ plan: 'Platinum', expiresAt: inAYear, via: 'seat' });
    expect(historyYearsOf(seated.onPlatinum, NOW)).toBe(plans.find((p) => p.id === 'Platinum')!.historyYears);
    expect(deliveryRightsOf(seated.onPlatinum, NOW).alerts).toBe(true);
    expect(planInUse(seated.basicOnPlatinum, NOW)?.via).toBe('seat');
    // A Platinum subscriber on someone else's Platinum seat keeps their own plan.
    expect(planInUse(colleague(platinumOwner, who.platinum!.record), NOW)?.via).toBe('own');
    for (const s of ['ownerLapsed', 'ownerUnsubscribed', 'ownerOneSeat', 'ownerGone', 'removed'] as const) {
      expect(planInUse(seated[s], NOW), s).toBeNull();
      expect(entitlementOf(seated[s], NOW), s).toBe('none');
      expect(deliveryRightsOf(seated[s], NOW).dailyUpdate, s).toBe(false);
    }
    expect(seatIsCurrent(platinumOwner, NOW)).toBe(true);
    expect(seatIsCurrent(null, NOW)).toBe(false);
  });

  it('only an owner whose own current plan has colleague seats may hand them out; a seat-holder may not invite, renew or upgrade on it', () => {
    expect(seatPlanOf(who.platinum, NOW)?.id).toBe('Platinum');
    for (const w of ['anonymous', 'free', 'trial', 'basic', 'standard', 'premium', 'expired', 'admin', 'noRecord'] as const) expect(seatPlanOf(who[w], NOW), w).toBeNull();
    expect(seatPlanOf(seated.onPlatinum, NOW)).toBeNull();
    // Renewal is of one's own plan: the seat's end date is never the colleague's to renew.
    expect(renewalDue({ ...seated.onPlatinum.record, subscribed: false }, new Date('2027-11-15T00:00:00Z'))).toBe(false);
    expect(accountPlan(seated.onPlatinum.record, NOW, null).offers.every((offer) => offer.quote.kind === 'new')).toBe(true);
  });

  it('the pages and endpoints: the join page and the team endpoints are for everyone signed in (the handlers decide who may do what)', () => {
    expect(requirementOf('/account/join')).toBe('signedIn');
    expect(outcome('/account/join', 'anonymous')).toBe(REG('/account/join'));
    for (const w of ['free', 'basic', 'platinum'] as const) expect(outcome('/account/join', w)).toBe(A);
    for (const path of ['/api/account/seats', '/api/account/seats/abcd/reinvite', '/api/account/seats/accept']) {
      expect(requirementOf(path)).toBe('signedIn');
      expect(outcome(path, 'anonymous')).toBe('401');
    }
  });
});
