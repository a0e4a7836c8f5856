export const TEST_EMULATOR_HOST = process.env['TEST_EMULATOR_HOST'] ?? '127.0.0.1:9299';
export const TEST_DATA_DIR = '.cache/vitest-data';
