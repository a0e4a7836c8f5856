/**
 * "Add to compare" across screens, in plain DOM code: /compare remembers its state (the
 * canonical query) in localStorage, and every "Add to compare" link then leads to that
 * comparison with its series added. Without JavaScript (or storage) the link still opens a
 * comparison of the card's series.
 */
const KEY = 'polyindex.compare';

const stored = (): string => {
  try {
    return window.localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
};

/** On /compare: keep the state shown; typing a date switches the range to "Custom dates". */
export function rememberComparison(): void {
  const state = document.querySelector<HTMLElement>('[data-compare-state]')?.dataset['compareState'];
  if (state !== undefined) {
    try {
      if (state) window.localStorage.setItem(KEY, state);
      else window.localStorage.removeItem(KEY);
    } catch {
      // Storage may be unavailable (private windows); links then start a new comparison.
    }
  }
  const range = document.querySelector<HTMLSelectElement>('select[name="range"]');
  for (const input of document.querySelectorAll<HTMLInputElement>('input[type="date"][name="from"], input[type="date"][name="to"]')) {
    input.addEventListener('change', () => {
      if (range) range.value = 'custom';
    });
  }
}

/** On any screen: point "Add to compare" links at the remembered comparison. */
export function initAddToCompare(): void {
  const state = stored();
  if (!state || !/^[A-Za-z0-9._,=&%-]+$/.test(state)) return;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-compare-add]')) {
    link.href = `/compare?${state}&add=${encodeURIComponent(link.dataset['compareAdd'] ?? '')}`;
  }
}
