import { describe, expect, it } from 'vitest';
import { FULL_CHROMIUM, HEADLESS_SHELL, testChromium } from '../../scripts/lib/chromium.mjs';

describe('the Chromium the tests drive', () => {
  const installed = (...paths: string[]) => (path: string) => paths.includes(path);

  it('is the headless shell where Debian’s package is installed', () => {
    expect(testChromium({}, installed(FULL_CHROMIUM, HEADLESS_SHELL))).toBe(HEADLESS_SHELL);
  });

  it('is the full browser where only it is installed', () => {
    expect(testChromium({}, installed(FULL_CHROMIUM))).toBe(FULL_CHROMIUM);
  });

  it('is CHROMIUM_PATH when given, whatever is installed', () => {
    expect(testChromium({ CHROMIUM_PATH: '/opt/chromium/chrome' }, installed(HEADLESS_SHELL))).toBe('/opt/chromium/chrome');
    expect(testChromium({ CHROMIUM_PATH: '  ' }, installed(HEADLESS_SHELL))).toBe(HEADLESS_SHELL);
  });
});
