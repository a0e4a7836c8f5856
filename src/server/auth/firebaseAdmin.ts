/**
 * firebase-admin for one project: a real project with a service account, or the Auth
 * emulator (demo project, unsigned tokens — loopback only). No astro:* imports, so scripts
 * and tests use the same code.
 */
import { cert, getApp, getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { AUTH_EMULATOR_HOST_IN_REAL_MODE, isAuthEmulatorMode } from '../../lib/modes.ts';
import { DEFAULT_AUTH_EMULATOR_HOST } from '../config/settings.ts';

export interface FirebaseAdminOptions {
  readonly projectId: string;
  /** Service-account JSON; absent = emulator mode. */
  readonly serviceAccountJson?: string | undefined;
  /** host:port of the Auth emulator (emulator mode only). */
  readonly emulatorHost?: string | undefined;
}

export const isEmulatorMode = (options: FirebaseAdminOptions): boolean => isAuthEmulatorMode(options.serviceAccountJson);

/**
 * The Auth of one project. Throws in real mode when FIREBASE_AUTH_EMULATOR_HOST is set: firebase-admin
 * reads that variable on every call, whatever the credential, and would then take the emulator's
 * unsigned tokens for real ones (the start-up checks refuse it first; this is the last line).
 */
export function firebaseAuth(options: FirebaseAdminOptions): Auth {
  if (isEmulatorMode(options)) {
    // firebase-admin reads the emulator address from the environment only.
    process.env['FIREBASE_AUTH_EMULATOR_HOST'] = options.emulatorHost ?? process.env['FIREBASE_AUTH_EMULATOR_HOST'] ?? DEFAULT_AUTH_EMULATOR_HOST;
  } else if (process.env['FIREBASE_AUTH_EMULATOR_HOST']) {
    throw new Error(AUTH_EMULATOR_HOST_IN_REAL_MODE);
  }
  const name = `polyindex-${options.projectId}`;
  const app: App = getApps().some((a) => a.name === name)
    ? getApp(name)
    : initializeApp(
        options.serviceAccountJson
          ? { projectId: options.projectId, credential: cert(JSON.parse(options.serviceAccountJson) as object) }
          : { projectId: options.projectId },
        name,
      );
  return getAuth(app);
}
