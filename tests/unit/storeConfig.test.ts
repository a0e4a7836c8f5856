// Which store a configuration opens (src/server/store/open.ts), as a table of cases.
import { describe, expect, it } from 'vitest';
import { describeStore, storeConfigFrom } from '../../src/server/store/open.ts';

const SERVICE_ACCOUNT = '{"project_id":"polyindex-prod","client_email":"x@y","private_key":"k"}';

describe('storeConfigFrom', () => {
  it.each([
    ['nothing set: the SQLite file under ./data', {}, { backend: 'sqlite', url: 'file:./data/polyindex.db' }],
    ['DATA_DIR moves the file', { DATA_DIR: '/srv/pi/' }, { backend: 'sqlite', url: 'file:/srv/pi/polyindex.db' }],
    ['a libSQL server', { LIBSQL_URL: 'libsql://db.example', LIBSQL_AUTH_TOKEN: 't' }, { backend: 'sqlite', url: 'libsql://db.example', authToken: 't' }],
    ['blank DATA_BACKEND is the default', { DATA_BACKEND: ' ' }, { backend: 'sqlite', url: 'file:./data/polyindex.db' }],
    [
      'Firestore on an emulator',
      { DATA_BACKEND: 'firestore', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' },
      { backend: 'firestore', projectId: 'demo-polyindex', emulatorHost: '127.0.0.1:8080', serviceAccountJson: undefined, databaseId: undefined },
    ],
    [
      'Firestore of a project, a named database',
      { DATA_BACKEND: 'firestore', FIREBASE_PROJECT_ID: 'polyindex-prod', FIREBASE_SERVICE_ACCOUNT: SERVICE_ACCOUNT, FIRESTORE_DATABASE_ID: 'prices' },
      { backend: 'firestore', projectId: 'polyindex-prod', serviceAccountJson: SERVICE_ACCOUNT, emulatorHost: undefined, databaseId: 'prices' },
    ],
  ])('%s', (_name, settings, expected) => {
    expect(storeConfigFrom(settings)).toEqual(expected);
  });

  it('refuses Firestore with nothing to reach it, and an unknown backend, naming the setting', () => {
    expect(() => storeConfigFrom({ DATA_BACKEND: 'firestore' })).toThrow(/FIREBASE_SERVICE_ACCOUNT.*FIRESTORE_EMULATOR_HOST/);
    expect(() => storeConfigFrom({ DATA_BACKEND: 'postgres' })).toThrow(/DATA_BACKEND must be one of sqlite, firestore/);
  });

  it('describes a store without its secrets', () => {
    expect(describeStore(storeConfigFrom({ LIBSQL_URL: 'libsql://db.example', LIBSQL_AUTH_TOKEN: 'secret-token' }))).toBe('libSQL db.example');
    const prod = describeStore(storeConfigFrom({ DATA_BACKEND: 'firestore', FIREBASE_PROJECT_ID: 'polyindex-prod', FIREBASE_SERVICE_ACCOUNT: SERVICE_ACCOUNT }));
    expect(prod).toBe('Firestore project polyindex-prod');
    expect(prod).not.toContain('private_key');
  });
});
