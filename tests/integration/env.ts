export const TEST_EMULATOR_HOST = process.env['TEST_EMULATOR_HOST'] ?? '127.0.0.1:9299';
/** The run's data directory. `npm test` gives its `integration` run one of its own (TEST_DATA_DIR). */
export const TEST_DATA_DIR = process.env['TEST_DATA_DIR'] || '.cache/vitest-data';
