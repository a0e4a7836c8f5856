/**
 * The header's and the mobile menu's signed-in state, as plain DOM code (no React on public
 * pages): asks /api/session once, renders what src/lib/sessionView.ts says, signs out, and
 * follows later changes of the shared session store (a payment completed by the Checkout
 * island marks the visitor subscribed at once).
 */
import { $session, loadSession, signOut } from '../islands/stores/session.ts';
import { headerItems, menuItems, type HeaderItem, type SessionView } from '../lib/sessionView.ts';
import { MEDIUM_BREAKPOINT_PX } from '../lib/ui.ts';

const TOAST_MS = 4000;

function toast(text: string): void {
  const note = document.createElement('p');
  note.className = 'toast';
  note.setAttribute('role', 'alert');
  note.textContent = text;
  document.body.append(note);
  window.setTimeout(() => note.remove(), TOAST_MS);
}

async function onSignOut(): Promise<void> {
  try {
    await signOut();
    window.location.assign('/');
  } catch (error) {
    // A failed sign-out: a toast on a phone (no console to read there), only logged on desktop.
    if (window.matchMedia(`(max-width: ${MEDIUM_BREAKPOINT_PX - 0.02}px)`).matches) toast('Something went wrong');
    else console.error('Sign-out failed', error);
  }
}

function elementOf(item: HeaderItem): HTMLElement {
  const node =
    item.kind === 'link' ? Object.assign(document.createElement('a'), { href: item.href }) :
    item.kind === 'signOut' ? Object.assign(document.createElement('button'), { type: 'button' }) :
    document.createElement(item.kind === 'banner' ? 'p' : 'span');
  node.className = item.wideOnly ? `${item.className} wide-only` : item.className;
  node.dataset['testid'] = item.testId;
  if (item.narrowText) {
    // Both forms in the page, one shown by the breakpoint (global.css): no script on resize.
    node.append(
      Object.assign(document.createElement('span'), { className: 'when-wide', textContent: item.text }),
      Object.assign(document.createElement('span'), { className: 'when-narrow', textContent: item.narrowText }),
    );
  } else node.textContent = item.text;
  if (item.kind === 'signOut') node.addEventListener('click', () => void onSignOut());
  if (item.kind === 'banner') {
    node.setAttribute('role', 'status');
    node.append(Object.assign(document.createElement('a'), { href: item.link.href, textContent: item.link.text }));
  }
  return node;
}

function render(view: SessionView | null): void {
  if (!view) return;
  const now = new Date();
  document.querySelector('[data-header-session]')?.replaceChildren(...headerItems(view, now).map(elementOf));
  document.querySelector('[data-menu-session]')?.replaceChildren(...menuItems(view, now).map(elementOf));
}

$session.subscribe(render);
loadSession().catch((error: unknown) => console.error('Loading the session failed', error));
// Countdowns (trial, renewal) move on while the page stays open.
window.setInterval(() => render($session.get()), 60_000);
