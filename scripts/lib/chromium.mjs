// Which Debian Chromium the tests and tools drive, and the flags that keep it off the network.
//
// Tests prefer Debian's `chromium-headless-shell` (the package of that name): Blink of the same
// version without the full browser around it. The whole browser suite passed on both; the shell
// used a third less CPU and time (docs/decisions.md, "The test suite"). Where only `chromium`
// is installed, the tests use it. Lighthouse uses the full browser unless CHROMIUM_PATH says
// otherwise: it stands for a visitor's.
import { existsSync } from 'node:fs';

/** Debian's full browser (package `chromium`). */
export const FULL_CHROMIUM = '/usr/bin/chromium';
/** Debian's headless shell (package `chromium-headless-shell`). */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** No network but the page's own loopback origin: no sync, updates or background fetches. */
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The browser of the tests: CHROMIUM_PATH when set, else the headless shell when installed, else the full browser. */
export function testChromium(env = process.env, exists = existsSync) {
  const given = env.CHROMIUM_PATH?.trim();
  if (given) return given;
  return exists(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
