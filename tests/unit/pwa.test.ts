import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requirementOf } from '../../src/lib/access/policy.ts';
import {
  APP_ICONS,
  BACKGROUND_COLOR,
  MANIFEST_PATH,
  OFFLINE_PATH,
  SERVICE_WORKER_PATH,
  THEME_COLOR,
  appManifest,
  iconPath,
  isAppShellPath,
} from '../../src/lib/pwa/appShell.ts';
import { OWNER_ENTRY_PATH, PRIVATE_COPIES_CACHE, PRIVATE_OWNER_CACHE, PUBLIC_CACHE, isPrivateCacheName } from '../../src/lib/pwa/cacheNames.ts';
import { cacheDirectives, cacheKindOf, mayKeep, outageAnswer, saysSignedOut, SESSION_CHANGE_PATHS } from '../../src/lib/pwa/cacheRules.ts';
import { iconSvg } from '../../src/lib/pwa/iconSvg.ts';
import { fetchedAtOf, offlineStampText, withOfflineStamp } from '../../src/lib/pwa/offlineStamp.ts';
import { ANONYMOUS, formatViewer, jwtExpiry, ownerIsCurrent, parseOwner, parseViewer } from '../../src/lib/pwa/viewer.ts';

describe('what the service worker may keep, by path', () => {
  it.each([
    // Public pages and answers: a shared copy anyone on the device may read.
    ['/', 'public'], ['/news', 'public'], ['/news/some-article', 'public'], ['/terms', 'public'], ['/register', 'public'],
    ['/api/carousels/', 'public'], [OFFLINE_PATH, 'public'],
    // Price screens and data answers (full access) and the limited sections: the owner's copies.
    ['/crude/Naphtha', 'private'], ['/crude', 'private'], ['/indian-bazaar/citywise', 'private'], ['/global-bazaar/USA', 'private'],
    ['/historical-data/PP', 'private'], ['/graph/HDPE', 'private'], ['/news/some-article/full', 'private'],
    ['/api/feedstock', 'private'], ['/api/citywise/mumbai', 'private'], ['/api/internationaloffers', 'private'],
    ['/api/historicaldata', 'private'], ['/api/blogs', 'private'], ['/api/series', 'private'],
    ['/buy-sell', 'private'], ['/services/events', 'private'], ['/vip-delegations/2019/k-show', 'private'],
    // Never: sign-in and out, payments, the session answer, admin, account pages, jobs, downloads.
    ['/api/auth/session', 'never'], ['/api/auth/logout', 'never'], ['/api/auth/config', 'never'], ['/api/session', 'never'],
    ['/api/payments/verify', 'never'], ['/api/payments/webhook', 'never'], ['/api/makePayment', 'never'],
    ['/admin', 'never'], ['/admin/users', 'never'], ['/api/admin/users', 'never'], ['/subscription', 'never'], ['/details', 'never'],
    ['/api/health', 'never'], ['/api/jobs/daily-update', 'never'], ['/api/whatsapp/webhook', 'never'],
    ['/api/export/brent.csv', 'never'], ['/api/sendMail', 'never'], ['/api/enquiries/contact', 'never'],
    ['/__polyindex/offline-owner', 'never'], ['/alerts', 'never'], ['/api/alerts/settings', 'never'], ['/unsubscribe', 'never'],
    ['/api/unsubscribe', 'never'], ['/admin/whatsapp', 'never'],
  ] as const)('%s → %s', (path, kind) => expect(cacheKindOf(path)).toBe(kind));

  it('never keeps an admin or account path, whatever the policy adds later', () => {
    for (const path of ['/admin/posts', '/admin/whatsapp', '/api/admin/posts', '/api/payments/sandbox/complete']) expect(cacheKindOf(path)).toBe('never');
  });

  it('forgets on sign-in and sign-out, which are never kept themselves', () => {
    for (const path of SESSION_CHANGE_PATHS) expect(cacheKindOf(path)).toBe('never');
  });
});

describe('what the service worker may keep, by answer', () => {
  it.each([
    ['private', 200, 'private, max-age=60', true],
    ['private', 200, 'private, no-cache', true],
    ['private', 200, null, true],
    ['private', 200, 'private, no-store', false],
    ['private', 200, 'No-Store', false],
    ['private', 302, 'private, no-cache', false],
    ['private', 401, 'no-store', false],
    ['private', 403, null, false],
    ['private', 0, null, false],
    ['public', 200, null, true],
    ['public', 200, 'public, max-age=300', true],
    ['public', 200, 'public, s-maxage=60, stale-while-revalidate', true],
    // A public path shaped for its visitor is not for the shared copy.
    ['public', 200, 'private, no-cache', false],
    ['public', 200, 'no-store', false],
    ['never', 200, 'public, max-age=300', false],
  ] as const)('%s, %i, Cache-Control %s → %s', (kind, status, cacheControl, expected) => expect(mayKeep(kind, status, cacheControl)).toBe(expected));

  it('reads Cache-Control directive names', () => {
    expect([...cacheDirectives(' Private , max-age=60,no-store ')]).toEqual(['private', 'max-age', 'no-store']);
    expect([...cacheDirectives('')]).toEqual([]);
    expect([...cacheDirectives(null)]).toEqual([]);
    expect([...cacheDirectives(',,')]).toEqual([]);
  });

  it.each([
    ['private', 401, true],
    ['private', 403, false],
    ['private', 200, false],
    ['public', 401, false],
    ['never', 401, false],
  ] as const)('a %s answer %i says signed out: %s', (kind, status, expected) => expect(saysSignedOut(kind, status)).toBe(expected));

  it.each([
    ['private', 503, true],
    ['private', 200, false],
    ['private', 500, false],
    ['private', 401, false],
    ['public', 503, false],
    ['never', 503, false],
  ] as const)('a %s answer %i shows the kept copy instead (the site is down): %s', (kind, status, expected) => expect(outageAnswer(kind, status)).toBe(expected));

  it('names the private caches so a sign-out finds every one', () => {
    expect(isPrivateCacheName(PRIVATE_COPIES_CACHE)).toBe(true);
    expect(isPrivateCacheName(PRIVATE_OWNER_CACHE)).toBe(true);
    expect(isPrivateCacheName(PUBLIC_CACHE)).toBe(false);
    expect(isPrivateCacheName('workbox-precache-v2-http://127.0.0.1/')).toBe(false);
    expect(OWNER_ENTRY_PATH.startsWith('/__polyindex/')).toBe(true);
  });
});

describe('the viewer header', () => {
  const signedIn = { signedIn: true, key: '0123456789abcdef0123456789abcdef', expiresAt: 1_795_000_000_000 } as const;

  it('round-trips a signed-in viewer (expiry in whole seconds) and anonymous', () => {
    expect(formatViewer(signedIn)).toBe('key=0123456789abcdef0123456789abcdef; expires=1795000000');
    expect(parseViewer(formatViewer(signedIn))).toEqual(signedIn);
    expect(formatViewer(ANONYMOUS)).toBe('anonymous');
    expect(parseViewer('anonymous')).toEqual(ANONYMOUS);
    expect(parseViewer(' anonymous ')).toEqual(ANONYMOUS);
  });

  it.each([
    [null], [undefined], [''], ['nobody'], ['key=XYZ; expires=1'], ['key=0123456789abcdef'], ['key=0123456789abcdef; expires='],
    ['key=0123456789abcdef; expires=-5'], ['key=0123456789ABCDEF; expires=5'], ['key=0123; expires=5'], ['anonymous; key=0123456789abcdef'],
  ])('says nothing for %j', (header) => expect(parseViewer(header)).toBeNull());

  it('refuses to write a key that is not lower-case hex', () => {
    expect(() => formatViewer({ ...signedIn, key: 'uid-of-someone' })).toThrow(RangeError);
  });

  it('reads a stored owner record only when it is whole', () => {
    const owner = { key: signedIn.key, expiresAt: 2000, since: 1000 };
    expect(parseOwner(owner)).toEqual(owner);
    expect(parseOwner(JSON.parse(JSON.stringify(owner)))).toEqual(owner);
    for (const bad of [null, 'x', 42, {}, { ...owner, key: 'NOPE' }, { ...owner, expiresAt: '2000' }, { ...owner, since: Number.NaN }, { key: owner.key, expiresAt: 2000 }]) {
      expect(parseOwner(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('serves an owner copy only before the session expires', () => {
    const owner = { key: signedIn.key, expiresAt: 2000, since: 1000 };
    expect(ownerIsCurrent(owner, 1999)).toBe(true);
    expect(ownerIsCurrent(owner, 2000)).toBe(false);
    expect(ownerIsCurrent(null, 0)).toBe(false);
  });

  const jwt = (claims: unknown) =>
    ['{"alg":"RS256"}', JSON.stringify(claims)].map((part) => Buffer.from(part).toString('base64url')).join('.') + '.signature';

  it.each([
    [jwt({ exp: 1_795_000_000, uid: 'u1' }), 1_795_000_000_000],
    // Unicode claims (base64url with - and _) still give the expiry.
    [jwt({ exp: 1_795_000_001, name: 'श्री ~~~>>>???' }), 1_795_000_001_000],
    [jwt({ uid: 'u1' }), null],
    [jwt({ exp: 'soon' }), null],
    [jwt({ exp: -1 }), null],
    [jwt([1, 2]), null],
    ['not-a-token', null],
    ['a.!!!.c', null],
    ['a.e30K.c', null],
    ['', null],
  ])('jwtExpiry(%s) → %s', (token, expected) => expect(jwtExpiry(token)).toBe(expected));
});

describe('the "prices as of" stamp', () => {
  it('says it is an offline copy and when its prices were fetched', () => {
    expect(offlineStampText(new Date('2026-11-24T09:35:00Z'))).toBe('Offline copy: prices as of 24 Nov 2026, 15:05 IST');
  });

  it('reads the fetch time a copy carries', () => {
    expect(fetchedAtOf('2026-11-24T09:35:00.000Z')?.toISOString()).toBe('2026-11-24T09:35:00.000Z');
    for (const bad of [null, undefined, '', 'yesterday']) expect(fetchedAtOf(bad)).toBeNull();
  });

  const at = new Date('2026-11-24T09:35:00Z');
  const text = 'Offline copy: prices as of 24 Nov 2026, 15:05 IST';

  it('fills and shows the placeholder of a full page', () => {
    const html = '<body><main id="main"><p class="offline-stamp" role="status" data-offline-stamp hidden></p><h1>Naphtha</h1></main></body>';
    expect(withOfflineStamp(html, at)).toBe(
      `<body><main id="main"><p class="offline-stamp" role="status" data-offline-stamp data-fetched-at="2026-11-24T09:35:00.000Z">${text}</p><h1>Naphtha</h1></main></body>`,
    );
  });

  it.each([
    ['<p hidden data-offline-stamp class="offline-stamp"></p>', `<p data-offline-stamp class="offline-stamp" data-fetched-at="2026-11-24T09:35:00.000Z">${text}</p>`],
    ['<p data-offline-stamp="" hidden="" data-astro-cid-x></p>', `<p data-offline-stamp="" data-astro-cid-x data-fetched-at="2026-11-24T09:35:00.000Z">${text}</p>`],
  ])('finds the placeholder whatever the attribute order: %s', (placeholder, shown) => {
    expect(withOfflineStamp(`<body>${placeholder}</body>`, at)).toBe(`<body>${shown}</body>`);
  });

  it('does not mistake another attribute for the placeholder', () => {
    const html = '<body class="x"><p data-offline-stamped hidden></p></body>';
    expect(withOfflineStamp(html, at)).toBe(
      `<body class="x"><p class="offline-stamp" role="status" data-offline-stamp data-fetched-at="2026-11-24T09:35:00.000Z">${text}</p><p data-offline-stamped hidden></p></body>`,
    );
  });

  it('puts a paragraph at the top of a page without a placeholder, and before anything without a body', () => {
    expect(withOfflineStamp('<html><body class="bare"><main>x</main></body></html>', at)).toContain(`<body class="bare"><p class="offline-stamp"`);
    expect(withOfflineStamp('plain', at).startsWith('<p class="offline-stamp"')).toBe(true);
  });
});

describe('the web app manifest', () => {
  it('is installable by Chrome: names, start URL inside the scope, standalone, 192 and 512 px PNG icons, maskable too', () => {
    expect(appManifest.name.length).toBeGreaterThan(0);
    expect(appManifest.short_name.length).toBeLessThanOrEqual(12);
    expect(appManifest.display).toBe('standalone');
    expect(appManifest.start_url.startsWith(appManifest.scope)).toBe(true);
    const sizes = (purpose: string) => appManifest.icons.filter((i) => i.purpose === purpose && i.type === 'image/png').map((i) => i.sizes);
    expect(sizes('any')).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(sizes('maskable')).toEqual(expect.arrayContaining(['192x192', '512x512']));
  });

  it("uses the site's palette", () => {
    const css = readFileSync(new URL('../../src/styles/global.css', import.meta.url), 'utf8');
    const property = (name: string) => new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(css)?.[1]?.toLowerCase();
    expect(THEME_COLOR).toBe(property('navy'));
    expect(BACKGROUND_COLOR).toBe(property('bg'));
    expect(appManifest.theme_color).toBe(THEME_COLOR);
    expect(appManifest.background_color).toBe(BACKGROUND_COLOR);
  });

  it('links every icon and shortcut to a public icon or a real section', () => {
    for (const icon of appManifest.icons) expect(isAppShellPath(icon.src), icon.src).toBe(true);
    for (const shortcut of appManifest.shortcuts) {
      expect(shortcut.url.startsWith('/')).toBe(true);
      expect(['public', 'full', 'limited']).toContain(requirementOf(shortcut.url));
      for (const icon of shortcut.icons) expect(isAppShellPath(icon.src)).toBe(true);
    }
  });

  it('names the app shell paths the policy opens', () => {
    for (const path of [MANIFEST_PATH, SERVICE_WORKER_PATH, OFFLINE_PATH, ...APP_ICONS.map(iconPath)]) expect(isAppShellPath(path), path).toBe(true);
    expect(isAppShellPath('/icons/unknown.png')).toBe(false);
  });
});

describe('the icons', () => {
  const logo = readFileSync(new URL('../../public/favicon.svg', import.meta.url), 'utf8');

  it('draws an `any` icon as the logo at the icon size', () => {
    const svg = iconSvg(logo, { size: 192, purpose: 'any' });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="192" height="192" viewBox="0 0 32 32">/);
    expect(svg).toContain('<path d="M5 22 L12 14 L17 18 L26 8"');
    expect(svg).not.toContain('<g transform');
  });

  it('draws a maskable icon full-bleed with the mark shrunk into the safe zone', () => {
    const svg = iconSvg(logo, { size: 512, purpose: 'maskable' });
    expect(svg).toContain(`<rect width="32" height="32" fill="${THEME_COLOR}"/>`);
    expect(svg).toContain('<g transform="translate(4 4) scale(0.75)">');
    // Every point of the mark (stroke 3 wide) stays inside the central circle of radius 40 %.
    const points = [...'M5 22 L12 14 L17 18 L26 8'.matchAll(/(\d+) (\d+)/g)].map((m) => [4 + 0.75 * Number(m[1]), 4 + 0.75 * Number(m[2])] as const);
    for (const [x, y] of points) expect(Math.hypot(x - 16, y - 16) + 0.75 * 1.5).toBeLessThan(0.4 * 32);
  });

  it('refuses a logo it cannot read', () => {
    expect(() => iconSvg('<img>', { size: 192, purpose: 'any' })).toThrow(/viewBox/);
    expect(() => iconSvg('<svg viewBox="10 10 32 32"></svg>', { size: 192, purpose: 'any' })).toThrow(/viewBox/);
  });
});
