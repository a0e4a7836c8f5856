import { describe, expect, it } from 'vitest';
import { FIREBASE_CONNECT, RAZORPAY_SCRIPTS, cspAdditions, mergePolicy, pageNeeds, type CspMode } from '../../src/lib/csp.ts';

const emulator: CspMode = { auth: { kind: 'emulator', url: 'http://127.0.0.1:9099' }, payments: 'sandbox' };
const live: CspMode = { auth: { kind: 'firebase', authDomain: 'polyindex-prod.firebaseapp.com' }, payments: 'razorpay' };

const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.split(' ')[0] === name);

describe('which pages need a third party', () => {
  it.each([
    ['/register', ['signIn']],
    ['/register/', ['signIn']],
    ['/subscription', ['checkout']],
    ['/', []],
    ['/crude/Naphtha', []],
    ['/registered', []],
    ['/admin/users', []],
  ])('%s → %o', (path, needs) => {
    expect(pageNeeds(path)).toEqual(needs);
  });
});

describe('what a page adds to the site policy, by mode', () => {
  it('every page rendered on demand forbids framing', () => {
    for (const mode of [emulator, live]) expect(cspAdditions(mode, []).directives).toEqual(["frame-ancestors 'none'"]);
  });

  it('sign-in in emulator mode talks to the emulator only', () => {
    expect(cspAdditions(emulator, ['signIn'])).toEqual({ directives: ["frame-ancestors 'none'", 'connect-src http://127.0.0.1:9099'], scriptResources: [] });
  });

  it('sign-in with a real project: Google endpoints, reCAPTCHA, and the project auth domain as a frame', () => {
    const { directives, scriptResources } = cspAdditions(live, ['signIn']);
    expect(directives).toContain(`connect-src ${FIREBASE_CONNECT.join(' ')}`);
    expect(directives.find((d) => d.startsWith('frame-src'))).toContain('https://polyindex-prod.firebaseapp.com');
    expect(scriptResources).toContain('https://apis.google.com');
    expect(scriptResources.join(' ')).not.toContain('razorpay');
  });

  it('checkout in the sandbox needs nothing; with live keys Razorpay script, frame, calls and images', () => {
    expect(cspAdditions(emulator, ['checkout'])).toEqual({ directives: ["frame-ancestors 'none'"], scriptResources: [] });
    const { directives, scriptResources } = cspAdditions(live, ['checkout']);
    expect(scriptResources).toEqual([...RAZORPAY_SCRIPTS]);
    expect(directives).toEqual(["frame-ancestors 'none'", 'connect-src https://api.razorpay.com https://lumberjack.razorpay.com', 'frame-src https://api.razorpay.com', 'img-src https://cdn.razorpay.com']);
    expect(directives.join(' ')).not.toContain('google');
  });

  it.each([
    ['emulator URL with a path and spaces', { kind: 'emulator', url: 'http://127.0.0.1:9099/x; script-src *' } as const, 'connect-src http://127.0.0.1:9099'],
    ['emulator URL that is not one', { kind: 'emulator', url: 'not a url' } as const, undefined],
    ['emulator URL with credentials', { kind: 'emulator', url: 'http://u:p@127.0.0.1:9099' } as const, undefined],
  ])('a configuration value cannot smuggle a directive: %s', (_, auth, connect) => {
    const { directives } = cspAdditions({ auth, payments: 'sandbox' }, ['signIn']);
    expect(directives.find((d) => d.startsWith('connect-src'))).toBe(connect);
  });

  it('an auth domain that is not a host name adds no frame source', () => {
    const { directives } = cspAdditions({ auth: { kind: 'firebase', authDomain: "evil.example; script-src 'unsafe-inline'" }, payments: 'sandbox' }, ['signIn']);
    expect(directives.join(' ')).not.toContain('evil');
    expect(directives.join(' ')).not.toContain('unsafe-inline');
  });
});

describe('merging into the policy Astro sent', () => {
  const site = "default-src 'self';connect-src 'self';frame-src 'self'; script-src 'self' 'sha256-abc='; style-src 'self' 'sha256-def='; style-src-attr 'unsafe-inline';";

  it('adds sources to the same-named directives and new directives at the end, hashes kept', () => {
    const merged = mergePolicy(site, cspAdditions(live, ['checkout']));
    expect(directive(merged, 'connect-src')).toBe("connect-src 'self' https://api.razorpay.com https://lumberjack.razorpay.com");
    expect(directive(merged, 'frame-src')).toBe("frame-src 'self' https://api.razorpay.com");
    expect(directive(merged, 'script-src')).toBe("script-src 'self' 'sha256-abc=' https://checkout.razorpay.com");
    expect(directive(merged, 'img-src')).toBe('img-src https://cdn.razorpay.com');
    expect(directive(merged, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive(merged, 'style-src')).toBe("style-src 'self' 'sha256-def='");
    expect(directive(merged, 'style-src-attr')).toBe("style-src-attr 'unsafe-inline'");
    expect(merged).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it("drops a 'none' that a source joins, and adds each source once", () => {
    const merged = mergePolicy("frame-src 'none'; connect-src 'self' http://127.0.0.1:9099", cspAdditions(emulator, ['signIn']));
    expect(directive(merged, 'connect-src')).toBe("connect-src 'self' http://127.0.0.1:9099");
    expect(directive(mergePolicy("frame-src 'none'", { directives: ['frame-src https://a.example'], scriptResources: [] }), 'frame-src')).toBe('frame-src https://a.example');
  });

  it('adds script sources to script-src-elem too when the policy has one', () => {
    const merged = mergePolicy("script-src 'self'; script-src-elem 'self' 'sha256-x='", { directives: [], scriptResources: ['https://checkout.razorpay.com'] });
    expect(directive(merged, 'script-src-elem')).toBe("script-src-elem 'self' 'sha256-x=' https://checkout.razorpay.com");
  });

  it('with nothing to add, the policy means the same', () => {
    expect(mergePolicy(site, { directives: [], scriptResources: [] })).toBe(
      "default-src 'self'; connect-src 'self'; frame-src 'self'; script-src 'self' 'sha256-abc='; style-src 'self' 'sha256-def='; style-src-attr 'unsafe-inline'",
    );
  });
});
