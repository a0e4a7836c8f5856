/**
 * /account's "Sign out on all devices": ends this browser's session and revokes every other
 * session of the account (POST /api/auth/logout revokes them all), then goes home.
 */
import { useEffect, useState } from 'react';
import { signOut } from './stores/session.ts';

export default function SignOutEverywhere() {
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setReady(true), []);

  async function run(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await signOut();
      window.location.assign('/');
    } catch {
      setBusy(false);
      setError('We could not sign you out. Check your connection and try again.');
    }
  }

  return (
    <div>
      <button type="button" className="btn btn-ghost" disabled={!ready || busy} onClick={() => void run()}>
        {busy ? 'Signing out…' : 'Sign out on all devices'}
      </button>
      {error && (
        <p role="alert" className="checkout-error">
          {error}
        </p>
      )}
    </div>
  );
}
