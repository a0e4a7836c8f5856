/** The run's data directory (TEST_DATA_DIR), emptied once at the start of a run. */
import { mkdirSync, rmSync } from 'node:fs';
import { TEST_DATA_DIR } from '../integration/env.ts';
import { shared } from './shared.ts';

export default async function setup() {
  const { release } = await shared(
    'data-dir',
    async () => {
      rmSync(TEST_DATA_DIR, { recursive: true, force: true });
      mkdirSync(TEST_DATA_DIR, { recursive: true });
    },
    async () => undefined,
  );
  return release;
}
