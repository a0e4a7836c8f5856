#!/usr/bin/env node
// `npm test`: every stage — types and lint, Vitest, then the browser suite on both stores — run
// to its end whatever an earlier stage did, then one report of all of them. Exits non-zero if any
// stage failed, so `.ci/run` can call exactly `npm install && npm test` and still see everything.
import { spawn } from 'node:child_process';

const STAGES = ['check', 'test:unit', 'test:e2e'];
// TEST_ALL_NPM: the command run as `npm` (tests/integration/test-all.test.ts gives a stand-in).
const npm = process.env.TEST_ALL_NPM ?? (process.platform === 'win32' ? 'npm.cmd' : 'npm');

function run(stage) {
  console.log(`\n[test] npm run ${stage}`);
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(npm, ['run', stage], { stdio: 'inherit', env: process.env });
    child.once('error', (error) => done({ stage, status: 127, seconds: 0, error: error.message }));
    child.once('exit', (code, signal) => done({ stage, status: code ?? 1, signal, seconds: Math.round((Date.now() - started) / 1000) }));
  });
}

const results = [];
for (const stage of STAGES) results.push(await run(stage));

console.log('\n[test] every stage:');
for (const { stage, status, signal, seconds, error } of results) {
  const how = error ?? (signal ? `killed by ${signal}` : `exit ${status}`);
  console.log(`[test]   ${stage.padEnd(10)} ${status === 0 ? 'ok    ' : 'FAILED'} (${how}, ${seconds} s)`);
}
const failed = results.filter((r) => r.status !== 0).map((r) => r.stage);
console.log(failed.length === 0 ? '[test] every stage passed' : `[test] failed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
