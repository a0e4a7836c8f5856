/**
 * scripts/lib/firestore-emulator.mjs: Google's Firestore emulator found where the Debian package
 * put it, started on a free loopback port, one project emptied (the others kept), stopped with
 * its Java process; the in-memory stand-in where the emulator is missing or refused. The
 * emulator part runs where the package is installed (these machines).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { portIsOpen } from '../../scripts/lib/auth-emulator.mjs';
import { FIRESTORE_EMULATOR_PACKAGE, findFirestoreEmulator, isFirestoreEmulator, startLocalFirestore } from '../../scripts/lib/firestore-emulator.mjs';
import { freePort } from '../../scripts/lib/ports.mjs';

const dir = mkdtempSync(join(tmpdir(), 'polyindex-firestore-emulator-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const packaged = findFirestoreEmulator({ ...process.env, FIRESTORE_EMULATOR_SCRIPT: '' });
const listed = spawnSync('dpkg', ['-L', FIRESTORE_EMULATOR_PACKAGE], { encoding: 'utf8' }).stdout ?? '';

/** The emulator's REST API, as the emulator takes it (any token is the owner). */
const rest = (host: string, project: string) => `http://${host}/v1/projects/${project}/databases/(default)/documents`;
async function put(host: string, project: string, id: string): Promise<void> {
  const response = await fetch(`${rest(host, project)}/notes?documentId=${id}`, { method: 'POST', headers: { Authorization: 'Bearer owner', 'Content-Type': 'application/json' }, body: JSON.stringify({ fields: { text: { stringValue: id } } }) });
  expect(response.status, await response.text()).toBe(200);
}
async function ids(host: string, project: string): Promise<string[]> {
  const { documents = [] } = (await (await fetch(`${rest(host, project)}/notes`, { headers: { Authorization: 'Bearer owner' } })).json()) as { documents?: { name: string }[] };
  return documents.map((d) => d.name.split('/').pop()!).sort();
}
const javaOn = (port: number) => spawnSync('pgrep', ['-f', `cloud-firestore-emulator\\.jar.*--port=${port}`], { encoding: 'utf8' }).stdout.trim();

describe('finding the emulator', () => {
  it.runIf(listed.includes('cloud_firestore_emulator'))('finds the script the Debian package installed', () => {
    expect(packaged).toEqual({ script: listed.split('\n').find((line) => line.endsWith('/cloud_firestore_emulator')), found: `the Debian package ${FIRESTORE_EMULATOR_PACKAGE}` });
  });

  it('takes FIRESTORE_EMULATOR_SCRIPT when it names an executable, refuses it when not, and `none` means the stand-in', () => {
    const script = join(dir, 'cloud_firestore_emulator');
    writeFileSync(script, '#!/bin/sh\nexit 1\n');
    expect(findFirestoreEmulator({ ...process.env, FIRESTORE_EMULATOR_SCRIPT: script })).toEqual({ script: null, reason: `FIRESTORE_EMULATOR_SCRIPT=${script} is not an executable file` });
    chmodSync(script, 0o755);
    expect(findFirestoreEmulator({ ...process.env, FIRESTORE_EMULATOR_SCRIPT: script })).toEqual({ script, found: 'FIRESTORE_EMULATOR_SCRIPT' });
    expect(findFirestoreEmulator({ ...process.env, FIRESTORE_EMULATOR_SCRIPT: 'none' })).toEqual({ script: null, reason: 'FIRESTORE_EMULATOR_SCRIPT=none' });
  });

  it('needs Java: without it the emulator cannot run, and it says so', () => {
    const found = findFirestoreEmulator({ ...process.env, JAVA: join(dir, 'no-java') });
    if (packaged.script) expect(found).toEqual({ script: null, reason: `${packaged.script} needs Java (17 or later), and ${join(dir, 'no-java')} is not there` });
    else expect(found.script).toBeNull();
  });
});

describe('a local Firestore', () => {
  it.runIf(packaged.script !== null)("starts Google's emulator on the port asked for, empties one project and keeps the others, and stops it, Java included", { timeout: 180_000 }, async () => {
    const port = await freePort();
    const firestore = await startLocalFirestore({ port });
    try {
      expect(firestore.kind).toBe('emulator');
      expect(firestore.host).toBe(`127.0.0.1:${port}`);
      expect(firestore.label).toContain(`Google's Firestore emulator on 127.0.0.1:${port} (${packaged.script}`);
      expect(await isFirestoreEmulator(firestore.host)).toBe(true);
      const java = javaOn(port);
      expect(java).toMatch(/^\d+$/);
      // The quick compiler and one GC thread: a fresh JVM beside busy workers warms up in seconds.
      const environment = readFileSync(`/proc/${java}/environ`, 'utf8').split('\0');
      expect(environment.find((v) => v.startsWith('JAVA_TOOL_OPTIONS='))).toMatch(/^JAVA_TOOL_OPTIONS=-XX:TieredStopAtLevel=1 -XX:\+UseSerialGC/);

      await put(firestore.host, 'demo-a', 'one');
      await put(firestore.host, 'demo-b', 'two');
      await firestore.empty('demo-a');
      expect(await ids(firestore.host, 'demo-a')).toEqual([]);
      expect(await ids(firestore.host, 'demo-b')).toEqual(['two']);
    } finally {
      await firestore.stop();
    }
    expect(await portIsOpen('127.0.0.1', port)).toBe(false);
    expect(javaOn(port)).toBe('');
  });

  it('is the in-memory stand-in where the emulator is not to be had, and says why', async () => {
    const firestore = await startLocalFirestore({ env: { ...process.env, FIRESTORE_EMULATOR_SCRIPT: 'none' } });
    try {
      expect(firestore.kind).toBe('stand-in');
      expect(firestore.label).toMatch(/^the in-memory Firestore stand-in on 127\.0\.0\.1:\d+ \(FIRESTORE_EMULATOR_SCRIPT=none\)$/);
      expect(await portIsOpen('127.0.0.1', Number(firestore.host.split(':')[1]))).toBe(true);
      expect(await isFirestoreEmulator(firestore.host)).toBe(false);
    } finally {
      await firestore.stop();
    }
  });

  it('is the stand-in, saying why, when the emulator is there but does not start', async () => {
    const broken = join(dir, 'broken_firestore_emulator');
    writeFileSync(broken, '#!/bin/sh\necho "no JVM here" >&2\nexit 3\n');
    chmodSync(broken, 0o755);
    const firestore = await startLocalFirestore({ env: { ...process.env, FIRESTORE_EMULATOR_SCRIPT: broken } });
    try {
      expect(firestore.kind).toBe('stand-in');
      expect(firestore.label).toContain(`(Google's emulator at ${broken} did not start: the Firestore emulator (${broken}) did not answer on 127.0.0.1:`);
      expect(firestore.label).toContain('(it exited: code 3, signal null)');
    } finally {
      await firestore.stop();
    }
  });
});
