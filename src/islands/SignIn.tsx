import { useEffect, useMemo, useRef, useState, type SubmitEvent } from 'react';
import { initializeApp, getApps, type FirebaseApp } from 'firebase/app';
import {
  GoogleAuthProvider,
  RecaptchaVerifier,
  browserPopupRedirectResolver,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  getAdditionalUserInfo,
  inMemoryPersistence,
  initializeAuth,
  signInWithCredential,
  signInWithEmailAndPassword,
  signInWithPhoneNumber,
  signInWithPopup,
  type Auth,
  type ConfirmationResult,
  type UserCredential,
} from 'firebase/auth';
import { GENERIC_AUTH_ERROR, authErrorMessage } from '../lib/authErrors.ts';
import { safeNextPath } from '../lib/redirects.ts';

interface WebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  appId?: string;
  emulatorUrl: string | null;
}

type Tab = 'email' | 'phone';
const POLL_MS = 1000;

async function connect(): Promise<{ auth: Auth; config: WebConfig }> {
  const response = await fetch('/api/auth/config');
  if (!response.ok) throw Object.assign(new Error('config'), { code: 'auth/network-request-failed' });
  const config = (await response.json()) as WebConfig;
  const app: FirebaseApp = getApps()[0] ?? initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId, ...(config.appId ? { appId: config.appId } : {}) });
  // The server cookie is the session; the browser keeps no Firebase state of its own. The
  // pop-up resolver only for Google's real sign-in: on a phone it loads Google's gapi script at
  // once, which the emulator mode's policy (rightly) refuses and which nothing offline needs.
  const auth = initializeAuth(app, { persistence: inMemoryPersistence, ...(config.emulatorUrl ? {} : { popupRedirectResolver: browserPopupRedirectResolver }) });
  if (config.emulatorUrl) {
    connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
    // The emulator needs no reCAPTCHA; this keeps phone sign-in working offline.
    auth.settings.appVerificationDisabledForTesting = true;
  }
  return { auth, config };
}

/** Hands the fresh ID token to the server, which sets the session cookie and creates the record. */
async function startServerSession(credential: UserCredential): Promise<void> {
  const idToken = await credential.user.getIdToken();
  const response = await fetch('/api/auth/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ idToken }),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw Object.assign(new Error(body?.error?.message ?? GENERIC_AUTH_ERROR), { serverMessage: body?.error?.message });
  }
  // The spec's fallback: poll once a second until the record exists, then keep it locally.
  for (let attempt = 0; attempt < 30; attempt++) {
    const session = (await (await fetch('/api/session', { credentials: 'same-origin' })).json()) as { user: unknown };
    if (session.user) {
      localStorage.setItem('user', JSON.stringify(session.user));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error('Your account record is not ready yet. Please try again in a moment.');
}

interface Props {
  /** Where to go after sign-in when the address names no `?next=` (the chosen plan's checkout). */
  readonly fallbackNext?: string;
}

export default function SignIn({ fallbackNext = '/' }: Props) {
  const [ready, setReady] = useState<{ auth: Auth; config: WebConfig } | null>(null);
  const [tab, setTab] = useState<Tab>('email');
  const [creating, setCreating] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<ConfirmationResult | null>(null);
  const recaptchaRef = useRef<RecaptchaVerifier | null>(null);
  const next = useMemo(() => safeNextPath(new URLSearchParams(window.location.search).get('next'), safeNextPath(fallbackNext)), [fallbackNext]);

  useEffect(() => {
    connect()
      .then(setReady)
      .catch((e: unknown) => setError(authErrorMessage(e)));
  }, []);

  async function finish(run: () => Promise<UserCredential>) {
    setBusy(true);
    setError(null);
    try {
      const credential = await run();
      await startServerSession(credential);
      const isNew = getAdditionalUserInfo(credential)?.isNewUser ?? false;
      window.location.assign(isNew ? `/details?next=${encodeURIComponent(next)}` : next);
    } catch (e) {
      const serverMessage = (e as { serverMessage?: string }).serverMessage;
      setError(serverMessage ?? (e instanceof Error && !('code' in e) && e.message !== GENERIC_AUTH_ERROR ? e.message : authErrorMessage(e)));
      setBusy(false);
    }
  }

  function onEmail(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready) return;
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    void finish(() => (creating ? createUserWithEmailAndPassword(ready.auth, email, password) : signInWithEmailAndPassword(ready.auth, email, password)));
  }

  function onGoogle(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready) return;
    if (ready.config.emulatorUrl) {
      // Offline: the emulator accepts an unsigned Google ID token for the given address.
      const email = String(new FormData(event.currentTarget).get('googleEmail') ?? '').trim();
      if (!email) return setError('Enter the Google account e-mail to sign in with in emulator mode.');
      const token = JSON.stringify({ sub: `google-${email.toLowerCase()}`, email, email_verified: true, name: email.split('@')[0] });
      void finish(() => signInWithCredential(ready.auth, GoogleAuthProvider.credential(token)));
    } else {
      void finish(() => signInWithPopup(ready.auth, new GoogleAuthProvider()));
    }
  }

  async function onPhone(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready) return;
    const form = new FormData(event.currentTarget);
    if (!confirmation) {
      setBusy(true);
      setError(null);
      try {
        recaptchaRef.current ??= new RecaptchaVerifier(ready.auth, 'phone-send', { size: 'invisible' });
        const phone = String(form.get('phone') ?? '').replace(/[\s-]/g, '');
        setConfirmation(await signInWithPhoneNumber(ready.auth, phone, recaptchaRef.current));
      } catch (e) {
        setError(authErrorMessage(e));
        recaptchaRef.current?.clear();
        recaptchaRef.current = null;
      } finally {
        setBusy(false);
      }
      return;
    }
    const code = String(form.get('code') ?? '').trim();
    void finish(() => confirmation.confirm(code));
  }

  const disabled = busy || !ready;
  const emulator = ready?.config.emulatorUrl ?? null;

  return (
    <div className="sign-in">
      <div className="tabs" role="tablist" aria-label="Sign-in method">
        <button type="button" role="tab" id="tab-email" aria-selected={tab === 'email'} aria-controls="panel-email" onClick={() => setTab('email')}>
          E-mail
        </button>
        <button type="button" role="tab" id="tab-phone" aria-selected={tab === 'phone'} aria-controls="panel-phone" onClick={() => setTab('phone')}>
          Phone
        </button>
      </div>

      {error && (
        <p className="form-error" role="alert" data-testid="auth-error">
          {error}
        </p>
      )}

      {tab === 'email' ? (
        <div id="panel-email" role="tabpanel" aria-labelledby="tab-email">
          <form className="form-stack" onSubmit={onEmail}>
            <span className="field">
              <label htmlFor="email">E-mail</label>
              <input id="email" name="email" type="email" autoComplete="email" required />
            </span>
            <span className="field">
              <label htmlFor="password">Password</label>
              <input id="password" name="password" type="password" autoComplete={creating ? 'new-password' : 'current-password'} minLength={6} required />
            </span>
            <button className="btn btn-primary btn-block" type="submit" disabled={disabled}>
              {creating ? 'Create account' : 'Sign in'}
            </button>
            <p className="form-note">
              {creating ? 'Already have an account? ' : 'New to PolyIndex? '}
              <button type="button" className="link-button" onClick={() => setCreating(!creating)}>
                {creating ? 'Sign in' : 'Create an account'}
              </button>
            </p>
          </form>
          <p className="divider">or</p>
          <form className="form-stack" onSubmit={onGoogle}>
            {emulator && (
              <span className="field">
                <label htmlFor="googleEmail">Google account e-mail (emulator)</label>
                <input id="googleEmail" name="googleEmail" type="email" placeholder="you@gmail.com" />
              </span>
            )}
            <button className="btn btn-google btn-block" type="submit" disabled={disabled}>
              Continue with Google
            </button>
          </form>
        </div>
      ) : (
        <div id="panel-phone" role="tabpanel" aria-labelledby="tab-phone">
          <form className="form-stack" onSubmit={onPhone}>
            <span className="field">
              <label htmlFor="phone">Phone number</label>
              <input id="phone" name="phone" type="tel" autoComplete="tel" placeholder="+91 98765 43210" required readOnly={confirmation !== null} />
            </span>
            {confirmation && (
              <span className="field">
                <label htmlFor="code">SMS code</label>
                <input id="code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" required />
              </span>
            )}
            <button id="phone-send" className="btn btn-primary btn-block" type="submit" disabled={disabled}>
              {confirmation ? 'Verify code' : 'Send code'}
            </button>
            {emulator && confirmation && (
              <p className="form-note" data-testid="emulator-code-hint">
                Emulator mode: no SMS is sent. The code is listed at{' '}
                <a href={`${emulator}/emulator/v1/projects/${ready?.config.projectId}/verificationCodes`} target="_blank" rel="noreferrer">
                  the emulator's verification codes
                </a>{' '}
                and in the terminal running <code>npm start</code>.
              </p>
            )}
          </form>
        </div>
      )}
    </div>
  );
}
