/**
 * Which store this process uses, from its configuration: SQLite (the embedded default, a file
 * under DATA_DIR, or a libSQL server) or Firestore (`DATA_BACKEND=firestore`). The server
 * (runtime.ts, through astro:env) and the scripts (process.env) read the same settings here.
 */
import type { FirestoreOptions } from './firestore/database.ts';
import { openFirestoreStore, openStore, sqliteUrlFor, type Store } from './index.ts';

export type DataBackend = 'sqlite' | 'firestore';
export const DATA_BACKENDS: readonly DataBackend[] = ['sqlite', 'firestore'];

export type StoreConfig =
  | { readonly backend: 'sqlite'; readonly url: string; readonly authToken?: string | undefined }
  | ({ readonly backend: 'firestore' } & FirestoreOptions);

/** The settings that choose and reach a store (names as in the environment). */
export interface StoreSettings {
  readonly DATA_BACKEND?: string | undefined;
  readonly DATA_DIR?: string | undefined;
  readonly LIBSQL_URL?: string | undefined;
  readonly LIBSQL_AUTH_TOKEN?: string | undefined;
  readonly FIREBASE_PROJECT_ID?: string | undefined;
  readonly FIREBASE_SERVICE_ACCOUNT?: string | undefined;
  readonly FIRESTORE_EMULATOR_HOST?: string | undefined;
  readonly FIRESTORE_DATABASE_ID?: string | undefined;
}

const blank = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

/** The store the settings describe; throws with the setting to fix when they are incomplete. */
export function storeConfigFrom(settings: StoreSettings): StoreConfig {
  const backend = blank(settings.DATA_BACKEND) ?? 'sqlite';
  if (backend === 'sqlite') {
    const libsql = blank(settings.LIBSQL_URL);
    return libsql
      ? { backend, url: libsql, authToken: blank(settings.LIBSQL_AUTH_TOKEN) }
      : { backend, url: sqliteUrlFor(blank(settings.DATA_DIR) ?? './data') };
  }
  if (backend !== 'firestore') throw new Error(`DATA_BACKEND must be one of ${DATA_BACKENDS.join(', ')}, not ${JSON.stringify(backend)}`);
  const emulatorHost = blank(settings.FIRESTORE_EMULATOR_HOST);
  const serviceAccountJson = blank(settings.FIREBASE_SERVICE_ACCOUNT);
  if (!emulatorHost && !serviceAccountJson) {
    throw new Error('DATA_BACKEND=firestore needs FIREBASE_SERVICE_ACCOUNT (a Firebase project) or FIRESTORE_EMULATOR_HOST (an emulator on loopback)');
  }
  return {
    backend,
    projectId: blank(settings.FIREBASE_PROJECT_ID) ?? 'demo-polyindex',
    serviceAccountJson,
    emulatorHost,
    databaseId: blank(settings.FIRESTORE_DATABASE_ID),
  };
}

export function openConfiguredStore(config: StoreConfig): Promise<Store> {
  return config.backend === 'sqlite' ? openStore({ url: config.url, authToken: config.authToken }) : openFirestoreStore(config);
}

/** Where the configured store lives, for logs (no secrets). */
export function describeStore(config: StoreConfig): string {
  if (config.backend === 'sqlite') return config.url.startsWith('file:') ? `SQLite ${config.url.slice('file:'.length)}` : `libSQL ${new URL(config.url).host}`;
  const where = config.emulatorHost ? `emulator ${config.emulatorHost}` : `project ${config.projectId}`;
  return `Firestore ${where}${config.databaseId ? ` database ${config.databaseId}` : ''}`;
}
