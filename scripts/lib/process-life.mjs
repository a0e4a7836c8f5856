// How `npm start` reads the end of a child process. A child killed by a signal has a null exit
// code: its status is the shell's 128 + the signal's number, never "0 because code was null".
import { constants } from 'node:os';

/** The exit status a shell would report: the code, or 128 + the number of the signal. */
export function exitStatusOf({ code, signal }) {
  if (signal) return 128 + (constants.signals[signal] ?? 0);
  return code ?? 1;
}

/** "exit code 3" or "killed by SIGKILL", for the log. */
export function describeExit({ code, signal }) {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/**
 * After a stop was asked for: exit code 0 is a clean stop, and so is death by the stop signal
 * itself (a server without a SIGTERM handler ends that way, as Node does by default).
 */
export function stoppedCleanly({ code, signal }) {
  return code === 0 || signal === 'SIGTERM' || signal === 'SIGINT';
}
