import { describe, expect, it } from 'vitest';
import { installOffer, type InstallFacts } from '../../src/lib/pwa/install.ts';

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const IPHONE_CHROME = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP_MODE = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const DESKTOP_FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

const facts = (over: Partial<InstallFacts>): InstallFacts => ({ prompt: false, standalone: false, userAgent: ANDROID_CHROME, maxTouchPoints: 5, ...over });

describe('offering to install the app', () => {
  it.each<[string, Partial<InstallFacts>, ReturnType<typeof installOffer>]>([
    ['Chrome on Android that offered installation', { prompt: true }, 'prompt'],
    ['Chrome on Android before it offers (or when it will not)', {}, 'none'],
    ['Safari on an iPhone', { userAgent: IPHONE_SAFARI }, 'ios-steps'],
    ['Chrome on an iPhone (Safari underneath: Share → Add to Home Screen)', { userAgent: IPHONE_CHROME }, 'ios-steps'],
    ['an iPad asking for desktop sites', { userAgent: IPAD_DESKTOP_MODE, maxTouchPoints: 5 }, 'ios-steps'],
    ['a Mac (no touch)', { userAgent: IPAD_DESKTOP_MODE, maxTouchPoints: 0 }, 'none'],
    ['Firefox on a desktop', { userAgent: DESKTOP_FIREFOX, maxTouchPoints: 0 }, 'none'],
    ['the installed app on Android', { prompt: true, standalone: true }, 'none'],
    ['the installed app on an iPhone', { userAgent: IPHONE_SAFARI, standalone: true }, 'none'],
  ])('%s: %s', (_, over, offer) => expect(installOffer(facts(over))).toBe(offer));
});
