import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freePort, freePortRun } from '../../scripts/lib/ports.mjs';

const ephemeralFirst = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('free ports for test servers and emulators', () => {
  it('come from below the ephemeral range, where no outgoing connection takes them meanwhile', async () => {
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralFirst);
    }
  });

  it('a run of three for the Auth emulator (its port, hub and logging), all below it', async () => {
    const first = await freePortRun(3);
    expect(first + 2).toBeLessThan(ephemeralFirst);
  });
});
