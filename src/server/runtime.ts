/**
 * The running site's long-lived services (store, Firebase Auth), built once per process from its
 * configuration (./config/index.ts, the only reader of settings), and the facts of its modes.
 */
import type { Auth } from 'firebase-admin/auth';
import { unsafeModeReasons } from '../lib/modes.ts';
import { firebaseAuth, type FirebaseAdminOptions } from './auth/firebaseAdmin.ts';
import { sessionVerifier } from './auth/sessions.ts';
import { config } from './config/index.ts';
import { metersOf } from './feed/meterLeases.ts';
import { seedForecastsIfEmpty, seedIfEmpty } from './seedOnFirstOpen.ts';
import type { Store } from './store/index.ts';
import { openConfiguredStore, storeConfigFrom, type StoreConfig } from './store/open.ts';

export const dataDir = config.dataDir;

const firebaseOptions: FirebaseAdminOptions = {
  projectId: config.firebase.projectId,
  serviceAccountJson: config.firebase.serviceAccountJson,
  emulatorHost: config.firebase.authEmulatorHost,
};

/** Emulator mode, the one fact: the session verifier, the start-up check and the web config read it. */
export const authEmulator = config.modes.authEmulator;

/**
 * Loopback-only mode (the Auth emulator's unsigned cookies, or sandbox payments): both lanes of
 * the request gate then answer only loopback clients addressing the server's loopback host and
 * port (src/server/edge/screen.ts).
 */
export const servesLoopbackOnly = (): boolean => config.modes.loopbackOnly;

/** The port the server listens on (the Astro lane's Host check; the node lanes read the connection's own). */
export const servedPort = (): number => config.port;

let configured: StoreConfig | undefined;
/** The store the settings name, read on first use: a build (prerendering) never needs one. */
function storeConfig(): StoreConfig {
  configured ??= storeConfigFrom(config.store);
  return configured;
}

/** `sqlite` or `firestore`, for the health check. */
export const storeBackend = (): StoreConfig['backend'] => storeConfig().backend;

/** Public Firebase web config for the sign-in page (these values are public by design). */
export const firebaseWebConfig = {
  apiKey: config.firebase.apiKey,
  authDomain: config.firebase.authDomain,
  projectId: config.firebase.projectId,
  ...(config.firebase.appId ? { appId: config.firebase.appId } : {}),
  /** Set only in emulator mode: the browser talks to the emulator instead of Google. */
  emulatorUrl: authEmulator ? `http://${config.firebase.authEmulatorHost}` : null,
} as const;

export const adminPanelUrl = config.adminPanelUrl;

/** Refuses to serve a non-loopback address with the emulator or sandbox stand-ins. */
export function assertSafeToServe(host = config.host): void {
  const store = storeConfig();
  const firestoreEmulator = store.backend === 'firestore' && Boolean(store.emulatorHost);
  const reasons = unsafeModeReasons({
    host,
    authEmulator,
    authEmulatorHost: config.firebase.authEmulatorHostSetting,
    // Payments refuse an unsafe host themselves, with their own reason (payments/index.ts).
    sandboxPayments: false,
    firestoreEmulator,
    whatsappSandbox: config.modes.whatsappSandbox,
    deliveryLinkSecret: Boolean(config.deliveryLinkSecret?.trim()),
  });
  if (reasons.length > 0) throw new Error(`Refusing to serve ${host}: ${reasons.join('; ')}`);
}

let forecastSeed: Promise<void> = Promise.resolve();
/** Settles when the first start's seed of demo forecasts has run (or failed: then the pages show what there is). */
export const forecastsSeeded = (): Promise<void> => forecastSeed;

let storePromise: Promise<Store> | undefined;
/** The process's store, opened once; without a Firebase project an empty store gets demo prices. */
export function store(): Promise<Store> {
  storePromise ??= (async () => {
    const opened = await openConfiguredStore(storeConfig());
    try {
      // Demo data only where nothing is real: a Firebase project's store is filled by imports.
      if (authEmulator) {
        await seedIfEmpty(opened);
        forecastSeed = seedForecastsIfEmpty(opened).catch((error: unknown) => console.error('[seed] demo forecasts failed:', error));
      }
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
  const store = opened ? await opened.catch(() => null) : null;
  if (!store) return;
  // The data feed's unused leases go back first, so the keys' counts are exact after a clean stop.
  await metersOf(store).release(new Date()).catch((error: unknown) => console.error('[feed] the unused meter leases could not be given back:', error));
  await store.close();
}
