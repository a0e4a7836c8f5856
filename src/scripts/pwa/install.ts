/**
 * "Install the app" (README, "Install the app"): every `[data-install]` block (the footer, the
 * phone menu) shows a button where the browser offers installation, the Share → Add to Home
 * Screen steps on an iPhone or iPad, and nothing once installed (src/lib/pwa/install.ts decides).
 */
import { installOffer } from '../../lib/pwa/install.ts';

/** Chromium's event (not in TypeScript's DOM types): `prompt()` shows the browser's install dialog. */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let held: InstallPromptEvent | null = null;
let installed = false;

const standalone = (): boolean => window.matchMedia('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;

function render(): void {
  const offer = installed ? 'none' : installOffer({ prompt: held !== null, standalone: standalone(), userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints });
  for (const block of document.querySelectorAll<HTMLElement>('[data-install]')) {
    block.hidden = offer === 'none';
    block.dataset['offer'] = offer;
    const button = block.querySelector<HTMLButtonElement>('[data-install-button]');
    const steps = block.querySelector<HTMLElement>('[data-install-steps]');
    if (button) button.hidden = offer !== 'prompt';
    if (steps) steps.hidden = offer !== 'ios-steps';
  }
}

window.addEventListener('beforeinstallprompt', (event) => {
  // Our button asks instead of the browser's mini bar, when the reader chooses to.
  event.preventDefault();
  held = event as InstallPromptEvent;
  render();
});
window.addEventListener('appinstalled', () => {
  installed = true;
  held = null;
  render();
});
document.addEventListener('click', (event) => {
  const button = (event.target as Element | null)?.closest?.('[data-install-button]');
  if (!button || !held) return;
  const prompt = held;
  // A prompt can be shown once: the browser fires the event again if it may offer it again.
  held = null;
  void prompt.prompt().then(() => prompt.userChoice).then(({ outcome }) => {
    if (outcome === 'accepted') installed = true;
    render();
  });
  render();
});
render();
