// Free loopback ports, so that test runs (and their servers and emulators) never need fixed ones
// and two runs on one machine do not meet.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where free ports are looked for: below the system's ephemeral range, which outgoing
 * connections draw from. A port the system hands out from that range can be taken by any
 * connection between our check and the emulator's bind (the Auth emulator's hub, port + 1, was:
 * "Could not start emulator hub, port taken" on a busy machine).
 */
const EPHEMERAL_FIRST = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
})();
const QUIET_FIRST = 10_000;
const QUIET_LAST = Math.max(QUIET_FIRST + 1000, Math.min(EPHEMERAL_FIRST, 65_536)) - 1;
const quietPort = () => QUIET_FIRST + Math.floor(Math.random() * (QUIET_LAST - QUIET_FIRST + 1));

/** Whether `port` on `host` can be listened on right now. */
export function bindable(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A free TCP port on loopback, outside the ephemeral range when one is free there. */
export async function freePort(host = '127.0.0.1') {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = quietPort();
    if (await bindable(port, host)) return port;
  }
  return systemPort(host);
}

/** A port the system hands out (its ephemeral range). */
function systemPort(host) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * The first of `count` consecutive free ports (the Firebase Auth emulator takes its port and the
 * two after it for its hub and logging), from a random start outside the ephemeral range, so two
 * callers rarely pick the same range and no outgoing connection takes one meanwhile.
 */
export async function freePortRun(count, host = '127.0.0.1') {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await freePort(host);
    if (first + count > 65_535) continue;
    let all = true;
    for (let port = first + 1; port < first + count && all; port++) all = await bindable(port, host);
    if (all) return first;
  }
  throw new Error(`no ${count} consecutive free ports on ${host}`);
}
