/**
 * Where the end-to-end suite runs its own server and emulator, apart from a dev `npm start`.
 * `E2E_BACKEND=firestore` runs the data-touching specs again on DATA_BACKEND=firestore (the
 * in-memory stand-in started by scripts/start.mjs), on ports of its own.
 */
export const E2E_BACKEND = process.env['E2E_BACKEND'] === 'firestore' ? 'firestore' : 'sqlite';
const firestore = E2E_BACKEND === 'firestore';
export const E2E_PORT = Number(process.env['E2E_PORT'] ?? (firestore ? 4398 : 4399));
export const baseURL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_EMULATOR_HOST = process.env['E2E_EMULATOR_HOST'] ?? (firestore ? '127.0.0.1:9196' : '127.0.0.1:9199');
export const E2E_DATA_DIR = process.env['E2E_DATA_DIR'] ?? (firestore ? '.cache/e2e-firestore-data' : '.cache/e2e-data');
export const PROJECT_ID = 'demo-polyindex';
export const DEMO_PASSWORD = 'polyindex-demo';
/** The e2e server's JOBS_SECRET (POST /api/jobs/daily-update). */
export const E2E_JOBS_SECRET = 'e2e-jobs-secret';
