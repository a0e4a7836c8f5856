/**
 * The installable app (the "mobile app" of the Standard plan): its fixed addresses, icons and web
 * app manifest. One module owns these facts; the manifest and icon routes, the build step that
 * writes the service worker, the service worker itself and the access policy all read them.
 */

import { MANIFEST_PATH, OFFLINE_PATH, SERVICE_WORKER_PATH, SERVICE_WORKER_SCOPE } from './addresses.ts';

export { MANIFEST_PATH, OFFLINE_PATH, SERVICE_WORKER_PATH, SERVICE_WORKER_SCOPE };

/** The site's palette (`--navy` and `--bg` in src/styles/global.css; a unit test keeps them equal). */
export const THEME_COLOR = '#0b2545';
export const BACKGROUND_COLOR = '#f5f7fa';

export type IconPurpose = 'any' | 'maskable';

export interface AppIcon {
  /** File name under /icons/, without `.png`. */
  readonly name: string;
  readonly size: number;
  readonly purpose: IconPurpose;
  /** false for the Apple touch icon, which a `<link>` names instead of the manifest. */
  readonly inManifest: boolean;
}

/**
 * PNGs rendered from the logo (public/favicon.svg) when the site is built. A maskable icon keeps
 * the mark inside the central safe zone (a circle of 80 % of the width) on a full-bleed background.
 */
export const APP_ICONS: readonly AppIcon[] = [
  { name: 'icon-192', size: 192, purpose: 'any', inManifest: true },
  { name: 'icon-512', size: 512, purpose: 'any', inManifest: true },
  { name: 'maskable-192', size: 192, purpose: 'maskable', inManifest: true },
  { name: 'maskable-512', size: 512, purpose: 'maskable', inManifest: true },
  // iOS rounds the corners itself and wants no transparency: drawn full-bleed, like a maskable one.
  { name: 'apple-touch-icon', size: 180, purpose: 'maskable', inManifest: false },
];

export const iconPath = (icon: Pick<AppIcon, 'name'>): string => `/icons/${icon.name}.png`;
export const APPLE_TOUCH_ICON = APP_ICONS.find((icon) => !icon.inManifest)!;

const APP_SHELL_PATHS = new Set([MANIFEST_PATH, SERVICE_WORKER_PATH, OFFLINE_PATH, ...APP_ICONS.map(iconPath)]);

/** The manifest, the service worker script, the icons and the offline page: public to everyone. */
export const isAppShellPath = (path: string): boolean => APP_SHELL_PATHS.has(path);

/** A section a subscriber opens from the installed app's icon menu (long press / right click). */
interface Shortcut {
  readonly name: string;
  readonly short_name: string;
  readonly url: string;
}

const SHORTCUTS: readonly Shortcut[] = [
  { name: 'Feedstock prices', short_name: 'Feedstock', url: '/crude' },
  { name: 'Indian bazaar prices', short_name: 'Indian bazaar', url: '/indian-bazaar' },
  { name: 'International offers', short_name: 'Global bazaar', url: '/global-bazaar' },
  { name: 'News', short_name: 'News', url: '/news' },
];

/** The web app manifest (https://www.w3.org/TR/appmanifest/), served at MANIFEST_PATH. */
export const appManifest = {
  id: '/',
  name: 'PolyIndex: polymer and petrochemical prices',
  short_name: 'PolyIndex',
  description: 'Polymer and petrochemical prices for buyers and traders in India: feedstock charts, city-wise prices, international offers and news.',
  lang: 'en-IN',
  dir: 'ltr',
  start_url: '/',
  scope: SERVICE_WORKER_SCOPE,
  display: 'standalone',
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  categories: ['business', 'finance', 'news'],
  icons: APP_ICONS.filter((icon) => icon.inManifest).map((icon) => ({
    src: iconPath(icon),
    sizes: `${icon.size}x${icon.size}`,
    type: 'image/png',
    purpose: icon.purpose,
  })),
  shortcuts: SHORTCUTS.map((s) => ({ ...s, icons: [{ src: iconPath({ name: 'icon-192' }), sizes: '192x192', type: 'image/png' }] })),
} as const;
