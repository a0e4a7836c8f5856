/**
 * Which store the environment asks for, read the way the site reads it: `DATA_BACKEND`
 * (`sqlite`, the default, or `firestore`); for SQLite `LIBSQL_URL` (+ `LIBSQL_AUTH_TOKEN`) or
 * else the file under `DATA_DIR` (default `./data`); for Firestore `FIREBASE_PROJECT_ID`
 * (default `demo-polyindex`), `FIREBASE_SERVICE_ACCOUNT` (service-account JSON: real
 * Firestore) or `FIRESTORE_EMULATOR_HOST`, and `FIRESTORE_DATABASE_ID` (a named database).
 * Scripts (`npm run store:copy`) use it; the site passes astro:env's values.
 */
import { resolve } from 'node:path';
import type { FirestoreOptions } from './firestore/database.ts';
import type { SqliteOptions } from './sqlite/database.ts';
import { sqliteUrlFor } from './index.ts';

export type StoreBackend = 'sqlite' | 'firestore';

export type StoreConfig =
  | { readonly backend: 'sqlite'; readonly sqlite: SqliteOptions }
  | { readonly backend: 'firestore'; readonly firestore: FirestoreOptions };

export type StoreEnv = Readonly<Record<string, string | undefined>>;

const set = (value: string | undefined): string | undefined => (value && value.trim() ? value.trim() : undefined);

export function storeConfigFromEnv(env: StoreEnv): StoreConfig {
  const backend = set(env['DATA_BACKEND']) ?? 'sqlite';
  if (backend === 'sqlite') {
    const libsqlUrl = set(env['LIBSQL_URL']);
    return {
      backend,
      sqlite: libsqlUrl ? { url: libsqlUrl, authToken: set(env['LIBSQL_AUTH_TOKEN']) } : { url: sqliteUrlFor(resolve(set(env['DATA_DIR']) ?? './data')) },
    };
  }
  if (backend === 'firestore') {
    return {
      backend,
      firestore: {
        projectId: set(env['FIREBASE_PROJECT_ID']) ?? 'demo-polyindex',
        serviceAccountJson: set(env['FIREBASE_SERVICE_ACCOUNT']),
        emulatorHost: set(env['FIRESTORE_EMULATOR_HOST']),
        databaseId: set(env['FIRESTORE_DATABASE_ID']),
      },
    };
  }
  throw new Error(`DATA_BACKEND must be sqlite or firestore, not ${JSON.stringify(backend)}`);
}
