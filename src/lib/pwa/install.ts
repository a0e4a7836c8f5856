/**
 * Whether and how to offer installing the app (pure; src/scripts/pwa/install.ts acts on it):
 *   - `prompt`: the browser offered installation (`beforeinstallprompt`: Chrome, Edge, Samsung
 *     Internet…): an "Install the app" button calls its prompt;
 *   - `ios-steps`: Safari on an iPhone or iPad never offers it to a page: the steps (Share, then
 *     Add to Home Screen) are shown instead;
 *   - `none`: already installed (opened from the home screen), or nothing to offer.
 */
export type InstallOffer = 'prompt' | 'ios-steps' | 'none';

export interface InstallFacts {
  /** A `beforeinstallprompt` event is held. */
  readonly prompt: boolean;
  /** The page runs as the installed app (display-mode standalone, or iOS's `navigator.standalone`). */
  readonly standalone: boolean;
  readonly userAgent: string;
  /** `navigator.maxTouchPoints`: an iPad asking for desktop sites says "Macintosh" but has touch. */
  readonly maxTouchPoints: number;
}

/** iOS and iPadOS, where every browser is Safari underneath and only Share → Add to Home Screen installs. */
export const isAppleMobile = ({ userAgent, maxTouchPoints }: Pick<InstallFacts, 'userAgent' | 'maxTouchPoints'>): boolean =>
  /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);

export function installOffer(facts: InstallFacts): InstallOffer {
  if (facts.standalone) return 'none';
  if (facts.prompt) return 'prompt';
  return isAppleMobile(facts) ? 'ios-steps' : 'none';
}
