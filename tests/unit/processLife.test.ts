import { describe, expect, it } from 'vitest';
import { describeExit, exitStatusOf, stoppedCleanly } from '../../scripts/lib/process-life.mjs';

describe('how npm start reads the end of a child', () => {
  it.each([
    [{ code: 0, signal: null }, 0, 'exit code 0', true],
    [{ code: 3, signal: null }, 3, 'exit code 3', false],
    [{ code: null, signal: 'SIGKILL' as const }, 137, 'killed by SIGKILL', false],
    [{ code: null, signal: 'SIGTERM' as const }, 143, 'killed by SIGTERM', true],
    [{ code: null, signal: 'SIGINT' as const }, 130, 'killed by SIGINT', true],
    [{ code: null, signal: 'SIGSEGV' as const }, 139, 'killed by SIGSEGV', false],
    [{ code: null, signal: null }, 1, 'exit code null', false],
  ])('%o → status %i, "%s", clean after a stop request: %s', (exit, status, text, clean) => {
    expect(exitStatusOf(exit)).toBe(status);
    expect(describeExit(exit)).toBe(text);
    expect(stoppedCleanly(exit)).toBe(clean);
  });
});
