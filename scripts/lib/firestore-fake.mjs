// The offline Firestore stand-in (`@firestore-emulator/server`, in memory) on a loopback port.
// Used by the contract suite, the Firestore end-to-end run and `npm start` with
// DATA_BACKEND=firestore when no FIRESTORE_EMULATOR_HOST is given. It is not the Firebase
// emulator: see docs/data.md ("Firestore layout") for what it lacks and how the adapter copes.
import { createRequire } from 'node:module';

// Required, not imported: the package's ES module build imports its own files without their
// extensions, which Node refuses when a bundler's resolver (Vite's, in a Vitest global setup)
// picks that build over the CommonJS one.
const require = createRequire(import.meta.url);
const { FirestoreServer } = require('@firestore-emulator/server');
// The stand-in's own grpc-js (another copy may be hoisted), so its credentials are accepted.
const fakeRequire = createRequire(require.resolve('@firestore-emulator/server'));
const { ServerCredentials } = fakeRequire('@grpc/grpc-js');

/**
 * Starts the stand-in on 127.0.0.1 (`port` 0 = any free port). The package binds 0.0.0.0 in
 * its own start(); binding its gRPC server here keeps it on loopback.
 */
export async function startFirestoreFake({ port = 0 } = {}) {
  const fake = new FirestoreServer();
  /** @type {import('@grpc/grpc-js').Server} */
  const grpc = /** @type {any} */ (fake).server;
  const bound = await new Promise((resolve, reject) => {
    grpc.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (error, actual) => (error ? reject(error) : resolve(actual)));
  });
  return {
    host: `127.0.0.1:${bound}`,
    /** Forgets every document of every project. */
    clear: () => fake.state.clear(),
    stop: () =>
      new Promise((resolve) => {
        grpc.tryShutdown(() => resolve(undefined));
      }),
  };
}
