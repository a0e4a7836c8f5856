/**
 * firebase-admin for one project: a real project with a service account, or the Auth
 * emulator (demo project, unsigned tokens — loopback only). No astro:* imports, so scripts
 * and tests use the same code.
 */
import { cert, getApp, getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';

export interface FirebaseAdminOptions {
  readonly projectId: string;
  /** Service-account JSON; absent = emulator mode. */
  readonly serviceAccountJson?: string | undefined;
  /** host:port of the Auth emulator (emulator mode only). */
  readonly emulatorHost?: string | undefined;
}

export const DEFAULT_EMULATOR_HOST = '127.0.0.1:9099';

export const isEmulatorMode = (options: FirebaseAdminOptions): boolean => !options.serviceAccountJson;

export function firebaseAuth(options: FirebaseAdminOptions): Auth {
  if (isEmulatorMode(options)) {
    // firebase-admin reads the emulator address from the environment only.
    process.env['FIREBASE_AUTH_EMULATOR_HOST'] = options.emulatorHost ?? process.env['FIREBASE_AUTH_EMULATOR_HOST'] ?? DEFAULT_EMULATOR_HOST;
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
