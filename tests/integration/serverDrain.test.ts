/**
 * The server process stops gracefully on SIGTERM: it stops accepting connections, finishes the
 * request in flight, closes the store with a WAL checkpoint and exits 0 within 10 s.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSiteServer } from '../../src/server/http/siteServer.ts';
import { openStore, sqliteUrlFor } from '../../src/server/store/index.ts';
import { TEST_DATA_DIR } from './env.ts';

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += String(chunk)));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('graceful stop', () => {
  it('finishes the request in flight, refuses new connections, checkpoints the store and exits 0 within 10 s', async () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'drain-'));
    const child = spawn(process.execPath, ['tests/integration/fixtures/drainServer.ts', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
    const port = await new Promise<number>((ok, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += String(chunk);
        const m = /listening (\d+)/.exec(output);
        if (m) ok(Number(m[1]));
      });
      child.once('exit', (code) => fail(new Error(`the server exited (${code}): ${output}`)));
    });
    const exited = new Promise<{ code: number | null; at: number }>((ok) => child.once('exit', (code) => ok({ code, at: Date.now() })));

    const inFlight = get(port, '/slow');
    // The request is being answered (the lane holds it) before the signal arrives.
    await expect.poll(() => output, { timeout: 60_000, interval: 50 }).toContain('holding /slow');
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    // The listener closes: a new connection is refused while the slow answer is still held
    // (the lane answers only when told, below), however long the machine takes to get there.
    const probe = () => get(port, '/probe').then(({ status }) => `answered ${status}`, (error: NodeJS.ErrnoException) => error.code ?? String(error));
    await expect.poll(probe, { timeout: 60_000, interval: 50 }).toBe('ECONNREFUSED');
    expect(child.exitCode).toBeNull();

    child.kill('SIGUSR2');
    expect(await inFlight).toEqual({ status: 200, body: 'finished' });
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(10_000);
    expect(output).toContain('SIGTERM');

    // The WAL was folded into the database file: nothing is left in it, and the row is there.
    const wal = join(dir, 'polyindex.db-wal');
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    const store = await openStore({ url: sqliteUrlFor(dir) });
    expect((await store.listBanners()).map((b) => b.id)).toEqual(['drain']);
    await store.close();
  });
});

describe('idle connections', () => {
  it('keeps an idle keep-alive connection longer than a proxy does (60 s), and a stop still closes it at once', async () => {
    const site = createSiteServer({
      lanes: [],
      fallback: (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      },
    });
    const port = await site.listen(0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true });
    const answer = await new Promise<{ keepAlive: string | string[] | undefined; body: string }>((ok, fail) => {
      const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += String(chunk)));
        const keepAlive = res.headers['keep-alive'];
        res.on('end', () => ok({ keepAlive: Array.isArray(keepAlive) ? keepAlive.join(', ') : keepAlive, body }));
      });
      req.on('error', fail);
      req.end();
    });
    // Node's default (5 s) made a client that reuses a connection later meet a reset.
    expect(answer).toEqual({ keepAlive: 'timeout=65', body: 'ok' });
    // The connection is idle in the agent's pool; the stop does not wait 65 s for it.
    expect(await site.stop({ drainMs: 60_000, closers: [] })).toBe(true);
    agent.destroy();
  });
});
