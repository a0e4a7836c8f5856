/**
 * The embedded default's demo accounts (README): one per row of the access table, password
 * `polyindex-demo`. Fixed uids keep the Auth emulator and the store in step across restarts;
 * every start puts each account back into the state its name promises.
 */
import type { Auth } from 'firebase-admin/auth';
import { addDays, isoDateOf, toDashedDate } from '../lib/dates.ts';
import { findPlan } from '../lib/plans.ts';
import type { UserRecord, UserStore } from './store/users.ts';

export const DEMO_PASSWORD = 'polyindex-demo';

export interface DemoAccount {
  readonly email: string;
  readonly uid: string;
  readonly displayName: string;
  readonly role: 'admin' | 'editor' | 'user';
  readonly plan: 'Basic' | 'Standard' | 'Premium' | 'Platinum' | null;
  /** Days before today the account was created. */
  readonly ageDays: number;
  readonly description: string;
}

export const demoAccounts: readonly DemoAccount[] = [
  { email: 'admin@polyindex.test', uid: 'demo-admin', displayName: 'Asha Admin', role: 'admin', plan: null, ageDays: 400, description: 'administrator' },
  { email: 'platinum@polyindex.test', uid: 'demo-platinum', displayName: 'Prakash Platinum', role: 'user', plan: 'Platinum', ageDays: 200, description: 'Platinum plan' },
  { email: 'premium@polyindex.test', uid: 'demo-premium', displayName: 'Priya Premium', role: 'user', plan: 'Premium', ageDays: 120, description: 'Premium plan' },
  { email: 'standard@polyindex.test', uid: 'demo-standard', displayName: 'Sanjay Standard', role: 'user', plan: 'Standard', ageDays: 90, description: 'Standard plan' },
  { email: 'basic@polyindex.test', uid: 'demo-basic', displayName: 'Bina Basic', role: 'user', plan: 'Basic', ageDays: 60, description: 'Basic plan' },
  { email: 'trial@polyindex.test', uid: 'demo-trial', displayName: 'Tarun Trial', role: 'user', plan: null, ageDays: 0, description: 'created today, in trial' },
  { email: 'free@polyindex.test', uid: 'demo-free', displayName: 'Farah Free', role: 'user', plan: null, ageDays: 30, description: 'created 30 days ago, trial over' },
  { email: 'editor@polyindex.test', uid: 'demo-editor', displayName: 'Esha Editor', role: 'editor', plan: null, ageDays: 45, description: 'editor: posts, banners and forecasts, no plan' },
];

export function demoRecord(account: DemoAccount, now: Date): UserRecord {
  const today = isoDateOf(now);
  const plan = findPlan(account.plan);
  return {
    uid: account.uid,
    displayName: account.displayName,
    email: account.email,
    phone: null,
    photoURL: null,
    role: account.role,
    subscribed: plan !== undefined,
    plan: plan?.id ?? null,
    createdAt: toDashedDate(addDays(today, -account.ageDays)),
    ...(plan
      ? {
          subscriptionAmount: plan.pricePaise / 100,
          subscribedAt: new Date(now.getTime() - 30 * 86_400_000).toISOString(),
          expiresAt: new Date(now.getTime() + (plan.durationDays - 30) * 86_400_000).toISOString(),
        }
      : { expiresAt: null }),
  };
}

function isAlreadyExists(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'auth/uid-already-exists' || code === 'auth/email-already-exists';
}

/** Creates a demo account's sign-in in Firebase Auth, unless it is there. */
async function ensureSignIn(auth: Auth, account: DemoAccount): Promise<void> {
  try {
    await auth.createUser({ uid: account.uid, email: account.email, password: DEMO_PASSWORD, displayName: account.displayName, emailVerified: true });
  } catch (error) {
    // Left as it is: updating the password would revoke the account's open sessions.
    if (!isAlreadyExists(error)) throw error;
  }
}

/**
 * Only the sign-ins, the user store left as it is: after the Auth emulator restarted while the
 * site runs (an admin's changes to a demo account since the start stay).
 */
export async function ensureDemoSignIns(auth: Auth): Promise<void> {
  for (const account of demoAccounts) await ensureSignIn(auth, account);
}

/** Creates (or resets) every demo account in Firebase Auth and the user store. */
export async function ensureDemoAccounts(auth: Auth, store: UserStore, now = new Date()): Promise<void> {
  for (const account of demoAccounts) {
    await ensureSignIn(auth, account);
    const record = demoRecord(account, now);
    if (!(await store.createUser(record))) {
      const { uid: _uid, ...state } = record;
      await store.updateUsersBy('uid', account.uid, state);
    }
  }
}
