import { describe, expect, it } from 'vitest';
import { decide, decideFor, entitlementOf, isEditorRole, renewalDue, requirementOf, type SessionFacts } from '../../src/lib/access/policy.ts';
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

function outcome(path: string, visitor: Who): string {
  const d = decide(path, who[visitor], NOW);
  return d.kind === 'allow' ? A : d.kind === 'redirect' ? `redirect ${d.to}` : String(d.status);
}

// One representative path per route family; every row of DESIGN §1.
const publicPages = ['/', '/register', '/terms', '/privacy', '/refunds', '/contact', '/news', '/news/some-article'];
const limitedPages = ['/buy-sell', '/vip-delegations/2019/k-show', '/vip-delegations', '/services', '/services/events'];
const gatedPages = [
  '/crude', '/crude/Naphtha', '/global-bazaar/USA', '/indian-bazaar/citywise', '/historical-data/PP',
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
    anonymous: REG, free: () => SUB, trial: () => A, basic: () => HOME, standard: () => HOME, premium: () => A,
    platinum: () => A, otherPlan: () => A, expired: () => SUB, admin: () => A, editor: () => SUB, editorPremium: () => A, noRecord: () => SUB,
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
  const editorPages = ['/admin/posts', '/admin/posts/new', '/admin/posts/some-id', '/admin/banners'];
  const adminOnlyPages = ['/admin', '/admin/whatsapp', '/admin/users', '/admin/users/demo-free', '/admin/prices', '/admin/prices/import', '/admin/markets', '/admin/outbox', '/admin/audit'];
  const editorApis = ['/api/admin/posts', '/api/admin/posts/some-id', '/api/admin/posts/preview', '/api/admin/posts/some-id/cover', '/api/admin/banners', '/api/admin/banners/b1/move', '/api/admin/banners/b1/remove'];
  const adminOnlyApis = ['/api/admin/users', '/api/admin/users/u1/role', '/api/admin/users/u1/grant', '/api/admin/prices/import', '/api/admin/prices/fx.usdinr/set', '/api/admin/citywise/mumbai/set', '/api/admin/offers/USA/set', '/api/admin/audit'];
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
    expect(outcome('/crude/Naphtha', 'editor')).toBe(SUB);
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

  it.each(['/api/alerts', '/api/alerts/settings', '/api/alerts/al_0123', '/api/alerts/whatsapp', '/api/alerts/whatsapp/verify', '/api/alerts/preview', '/api/alerts/price'].flatMap((p) => (Object.keys(who) as Who[]).map((w) => [p, w] as const)))(
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
    '/compare': { anonymous: REG('/compare'), free: SUB, trial: A, basic: HOME, standard: HOME, premium: A, platinum: A, expired: SUB, admin: A },
    '/api/series': { anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, expired: '403', admin: A },
    '/api/series/export.xlsx': { anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, expired: '403', admin: A },
    '/api/views': { anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, expired: '403', admin: A },
    '/api/views/abc/remove': { anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, expired: '403', admin: A },
    '/api/home/ticker': { anonymous: '401', free: '403', trial: A, basic: '403', standard: '403', premium: A, platinum: A, expired: '403', admin: A },
    '/api/home/teaser': { anonymous: A, free: A, trial: A, basic: A, standard: A, premium: A, platinum: A, expired: A, admin: A },
  };
  it.each(Object.keys(table).flatMap((path) => visitors.map((visitor) => [path, visitor] as const)))('%s for %s', (path, visitor) =>
    expect(outcome(path, visitor)).toBe(table[path]![visitor]),
  );

  it.each([
    ['/compare', 'full'], ['/api/series', 'full'], ['/api/series/export.png', 'full'], ['/api/views', 'full'], ['/api/views/x/remove', 'full'],
    ['/api/home/ticker', 'full'], ['/api/home/teaser', 'public'], ['/api/home/teaser/x', 'full'],
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
