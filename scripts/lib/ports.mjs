// Free loopback ports, so that test runs (and their servers and emulators) never need fixed ones
// and two runs on one machine do not meet.
import { createServer } from 'node:net';

/** Whether `port` on `host` can be listened on right now. */
function bindable(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A free TCP port on loopback, as the system hands one out. */
export function freePort(host = '127.0.0.1') {
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
 * two after it for its hub and logging). Tried from a port the system hands out, so two callers
 * rarely pick the same range.
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
