/**
 * The running site's configuration and its long-lived services (store, Firebase Auth), built
 * once per process from astro:env. The only server module that reads configuration.
 */
import { resolve } from 'node:path';
import {
  ADMIN_PANEL_URL,
  DATA_BACKEND,
  DATA_DIR,
  FIREBASE_API_KEY,
  FIREBASE_APP_ID,
  FIREBASE_AUTH_DOMAIN,
  FIREBASE_AUTH_EMULATOR_HOST,
  FIREBASE_PROJECT_ID,
  FIREBASE_SERVICE_ACCOUNT,
  FIRESTORE_DATABASE_ID,
  FIRESTORE_EMULATOR_HOST,
  DELIVERY_LINK_SECRET,
  LIBSQL_AUTH_TOKEN,
  LIBSQL_URL,
  WHATSAPP_PHONE_NUMBER_ID,
  WHATSAPP_TOKEN,
} from 'astro:env/server';
import type { Auth } from 'firebase-admin/auth';
import { isAuthEmulatorMode, unsafeModeReasons, whatsappSandboxOf } from '../lib/modes.ts';
import { DEFAULT_EMULATOR_HOST, firebaseAuth, type FirebaseAdminOptions } from './auth/firebaseAdmin.ts';
import { sessionVerifier } from './auth/sessions.ts';
import { seedIfEmpty } from './seedOnFirstOpen.ts';
import type { Store } from './store/index.ts';
import { openConfiguredStore, storeConfigFrom, type StoreConfig } from './store/open.ts';

export const dataDir = resolve(DATA_DIR);

const firebaseOptions: FirebaseAdminOptions = {
  projectId: FIREBASE_PROJECT_ID,
  serviceAccountJson: FIREBASE_SERVICE_ACCOUNT,
  emulatorHost: FIREBASE_AUTH_EMULATOR_HOST ?? DEFAULT_EMULATOR_HOST,
};

/** Emulator mode, the one fact: the session verifier, the start-up check and the web config read it. */
export const authEmulator = isAuthEmulatorMode(FIREBASE_SERVICE_ACCOUNT);

let configured: StoreConfig | undefined;
/** The store the settings name, read on first use: a build (prerendering) never needs one. */
function storeConfig(): StoreConfig {
  configured ??= storeConfigFrom({
    DATA_BACKEND,
    DATA_DIR: dataDir,
    LIBSQL_URL,
    LIBSQL_AUTH_TOKEN,
    FIREBASE_PROJECT_ID,
    FIREBASE_SERVICE_ACCOUNT,
    FIRESTORE_EMULATOR_HOST,
    FIRESTORE_DATABASE_ID,
  });
  return configured;
}

/** `sqlite` or `firestore`, for the health check. */
export const storeBackend = (): StoreConfig['backend'] => storeConfig().backend;

/** Public Firebase web config for the sign-in page (these values are public by design). */
export const firebaseWebConfig = {
  apiKey: FIREBASE_API_KEY,
  authDomain: FIREBASE_AUTH_DOMAIN ?? `${FIREBASE_PROJECT_ID}.firebaseapp.com`,
  projectId: FIREBASE_PROJECT_ID,
  ...(FIREBASE_APP_ID ? { appId: FIREBASE_APP_ID } : {}),
  /** Set only in emulator mode: the browser talks to the emulator instead of Google. */
  emulatorUrl: authEmulator ? `http://${FIREBASE_AUTH_EMULATOR_HOST ?? DEFAULT_EMULATOR_HOST}` : null,
} as const;

export const adminPanelUrl = ADMIN_PANEL_URL;

/** Refuses to serve a non-loopback address with the emulator or sandbox stand-ins. */
export function assertSafeToServe(host = process.env['HOST'] ?? '127.0.0.1'): void {
  const config = storeConfig();
  const firestoreEmulator = config.backend === 'firestore' && Boolean(config.emulatorHost);
  const whatsappSandbox = whatsappSandboxOf({ WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID });
  const reasons = unsafeModeReasons({ host, authEmulator, authEmulatorHost: FIREBASE_AUTH_EMULATOR_HOST, sandboxPayments: false, firestoreEmulator, whatsappSandbox, deliveryLinkSecret: Boolean(DELIVERY_LINK_SECRET?.trim()) });
  if (reasons.length > 0) throw new Error(`Refusing to serve ${host}: ${reasons.join('; ')}`);
}

let storePromise: Promise<Store> | undefined;
/** The process's store, opened once; without a Firebase project an empty store gets demo prices. */
export function store(): Promise<Store> {
  storePromise ??= (async () => {
    const opened = await openConfiguredStore(storeConfig());
    try {
      // Demo data only where nothing is real: a Firebase project's store is filled by imports.
      if (authEmulator) await seedIfEmpty(opened);
    } catch (error) {
      // The next request opens a new store: this one must not stay open beside it.
      await opened.close().catch(() => undefined);
      throw error;
    }
    return opened;
  })().catch((error: unknown) => {
    storePromise = undefined;
    throw error;
  });
  return storePromise;
}

let authInstance: Auth | undefined;
/** The process's Firebase Auth; its session verifier (sessions.ts) is made with it, in this mode. */
export function auth(): Auth {
  if (!authInstance) {
    const made = firebaseAuth(firebaseOptions);
    sessionVerifier(made, { emulator: authEmulator });
    authInstance = made;
  }
  return authInstance;
}

/** Closes the store if this process opened it (the server's graceful stop; SQLite checkpoints its WAL). */
export async function closeStore(): Promise<void> {
  const opened = storePromise;
  storePromise = undefined;
  if (opened) await (await opened.catch(() => null))?.close();
}
