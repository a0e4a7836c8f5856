/**
 * The visitor's session as islands share it (nanostores): loaded once from /api/session,
 * mirrored to localStorage under `user` as the spec keeps it, cleared on sign-out.
 */
import { atom } from 'nanostores';
import type { SessionView } from '../../lib/sessionView.ts';
import { forgetOfflineCopies } from '../../scripts/pwa/forget.ts';

export type { SessionView };

export const STORED_USER_KEY = 'user';

export const $session = atom<SessionView | null>(null);

function remember(view: SessionView): void {
  try {
    if (view.user) localStorage.setItem(STORED_USER_KEY, JSON.stringify(view.user));
    else localStorage.removeItem(STORED_USER_KEY);
  } catch {
    // Storage can be disabled (private mode); the server session is what counts.
  }
}

export async function loadSession(): Promise<SessionView> {
  const response = await fetch('/api/session', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`session: HTTP ${response.status}`);
  const view = (await response.json()) as SessionView;
  $session.set(view);
  remember(view);
  return view;
}

/** Marks the visitor as subscribed right after a verified payment (the completion callback). */
export function setSessionUser(user: NonNullable<SessionView['user']>, patch: Partial<SessionView> = {}): void {
  const view: SessionView = { ...($session.get() ?? { entitlement: 'none' }), ...patch, user };
  $session.set(view);
  remember(view);
}

export async function signOut(): Promise<void> {
  // The offline copies of gated screens go on the intent to sign out, even if the call fails.
  const [response] = await Promise.all([
    fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    forgetOfflineCopies(),
  ]);
  if (!response.ok) throw new Error(`logout: HTTP ${response.status}`);
  try {
    localStorage.removeItem(STORED_USER_KEY);
  } catch {
    // see remember()
  }
  $session.set({ user: null, entitlement: 'anonymous' });
}
