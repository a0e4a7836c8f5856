/** Where the end-to-end suite runs its own server and emulator, apart from a dev `npm start`. */
export const E2E_PORT = Number(process.env['E2E_PORT'] ?? 4399);
export const baseURL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_EMULATOR_HOST = process.env['E2E_EMULATOR_HOST'] ?? '127.0.0.1:9199';
export const E2E_DATA_DIR = '.cache/e2e-data';
export const PROJECT_ID = 'demo-polyindex';
export const DEMO_PASSWORD = 'polyindex-demo';
