export const FULL_CHROMIUM: string;
export const HEADLESS_SHELL: string;
export const CHROMIUM_FLAGS: string[];
export function testChromium(env?: Record<string, string | undefined>, exists?: (path: string) => boolean): string;
