/**
 * The layout's behaviour: mobile menu, back-to-top, loading placeholder. Plain DOM code,
 * not a React island, so public pages ship a few hundred bytes instead of a framework.
 */
import { LOADING_PLACEHOLDER_MAX_MS, isCloseSwipe, showBackToTop } from '../lib/ui.ts';

function initMobileMenu(): void {
  const menu = document.getElementById('mobile-menu');
  const openButton = document.querySelector<HTMLButtonElement>('[data-menu-open]');
  const closeButton = document.querySelector<HTMLButtonElement>('[data-menu-close]');
  const backdrop = document.querySelector<HTMLElement>('[data-menu-backdrop]');
  if (!menu || !openButton) return;

  const isOpen = () => menu.dataset['state'] === 'open';
  const open = () => {
    menu.dataset['state'] = 'open';
    menu.inert = false;
    if (backdrop) backdrop.hidden = false;
    openButton.setAttribute('aria-expanded', 'true');
    document.body.style.overflow = 'hidden';
    (closeButton ?? menu.querySelector<HTMLElement>('a'))?.focus();
  };
  const close = () => {
    if (!isOpen()) return;
    menu.dataset['state'] = 'closed';
    menu.inert = true;
    if (backdrop) backdrop.hidden = true;
    openButton.setAttribute('aria-expanded', 'false');
    document.body.style.overflow = '';
    openButton.focus();
  };

  openButton.addEventListener('click', () => (isOpen() ? close() : open()));
  closeButton?.addEventListener('click', close);
  backdrop?.addEventListener('click', close);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen()) close();
    // Keep Tab inside the open menu.
    if (event.key === 'Tab' && isOpen()) {
      const focusable = [...menu.querySelectorAll<HTMLElement>('a, button, summary')].filter((el) => el.offsetParent);
      const first = focusable[0];
      const last = focusable.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  });

  let start: { x: number; y: number } | null = null;
  menu.addEventListener(
    'touchstart',
    (event) => {
      const touch = event.touches[0];
      start = touch ? { x: touch.clientX, y: touch.clientY } : null;
    },
    { passive: true },
  );
  menu.addEventListener('touchend', (event) => {
    const touch = event.changedTouches[0];
    if (start && touch && isCloseSwipe(start, { x: touch.clientX, y: touch.clientY })) close();
    start = null;
  });
  // Pointer events cover mouse and pen drags with the same rule.
  menu.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch') start = { x: event.clientX, y: event.clientY };
  });
  menu.addEventListener('pointerup', (event) => {
    if (event.pointerType !== 'touch' && start && isCloseSwipe(start, { x: event.clientX, y: event.clientY })) close();
    if (event.pointerType !== 'touch') start = null;
  });
}

function initBackToTop(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-back-to-top]');
  if (!button) return;
  const update = () => {
    button.hidden = !showBackToTop(window.scrollY);
  };
  window.addEventListener('scroll', update, { passive: true });
  button.addEventListener('click', () => window.scrollTo({ top: 0 }));
  update();
}

function hideLoadingPlaceholder(): void {
  const placeholder = document.getElementById('page-loading');
  if (!placeholder) return;
  const hide = () => {
    placeholder.hidden = true;
  };
  // Content is server-rendered, so it is ready once the document is parsed; the timeout is
  // the spec's upper bound in case something keeps the page busy.
  window.setTimeout(hide, LOADING_PLACEHOLDER_MAX_MS);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', hide, { once: true });
  else hide();
}

initMobileMenu();
initBackToTop();
hideLoadingPlaceholder();

// Selectors inside GET forms apply on change; the form's button remains for keyboard and no-JS use.
// `data-ready` says the listener is attached (tests wait for it before they choose).
for (const select of document.querySelectorAll<HTMLSelectElement>('select[data-autosubmit]')) {
  select.addEventListener('change', () => select.form?.requestSubmit());
  select.dataset['ready'] = 'true';
}
