import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { startOfIndianDay, timeLeftLabel } from '../lib/countdown.ts';
import { MEDIUM_BREAKPOINT_PX } from '../lib/ui.ts';
import { $session, loadSession, signOut } from './stores/session.ts';

/** The header's visitor state: Subscribe Now, Subscribed or Admin Panel, sign in/out, trial banner. */
export default function HeaderSession() {
  const session = useStore($session);
  const [toast, setToast] = useState<string | null>(null);
  const [now, setNow] = useState(() => new Date());

  useEffect(() => {
    loadSession().catch((error: unknown) => console.error('Loading the session failed', error));
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast(null), 4000);
    return () => window.clearTimeout(timer);
  }, [toast]);

  async function onSignOut() {
    try {
      await signOut();
      window.location.assign('/');
    } catch (error) {
      // Spec §8: a toast on mobile, only logged on desktop.
      if (window.matchMedia(`(max-width: ${MEDIUM_BREAKPOINT_PX - 0.02}px)`).matches) setToast('Something went wrong');
      else console.error('Sign-out failed', error);
    }
  }

  if (!session) return <span className="session-placeholder" aria-hidden="true" />;

  const signedIn = session.user !== null || session.entitlement !== 'anonymous';
  const trialLeft = session.trial?.endsOn ? timeLeftLabel(startOfIndianDay(session.trial.endsOn), now) : null;
  const expiresAt = session.user?.expiresAt ? new Date(session.user.expiresAt) : null;

  return (
    <div className="session">
      {session.admin ? (
        <a className="btn btn-primary" href={session.adminPanelUrl ?? '/admin'} data-testid="admin-panel">
          Admin Panel
        </a>
      ) : session.subscribed ? (
        <span className="badge subscribed" data-testid="subscribed">
          Subscribed{session.user?.plan ? ` · ${session.user.plan}` : ''}
        </span>
      ) : (
        <a className="btn btn-primary" href="/subscription" data-testid="subscribe-now">
          Subscribe Now
        </a>
      )}
      {session.renewalDue && expiresAt && (
        <a className="btn btn-ghost renew" href="/subscription" data-testid="renew">
          Renew: {timeLeftLabel(expiresAt, now) ?? 'today'} left
        </a>
      )}
      {signedIn && (
        <a className="btn btn-ghost" href="/alerts" data-testid="alerts-link">
          Alerts
        </a>
      )}
      {signedIn ? (
        <button type="button" className="btn btn-ghost" onClick={onSignOut} data-testid="sign-out">
          Sign out
        </button>
      ) : (
        <a className="btn btn-ghost" href="/register" data-testid="sign-in">
          Sign in
        </a>
      )}
      {trialLeft && (
        <p className="trial-banner" role="status" data-testid="trial-banner">
          Free trial: {trialLeft} left of full access. <a href="/subscription">Choose a plan</a>
        </p>
      )}
      {toast && (
        <p className="toast" role="alert">
          {toast}
        </p>
      )}
    </div>
  );
}
