/**
 * SQLite's point reads (src/server/store/sqlite/pointReads.ts): a record by its key, on a
 * connection of its own, sees every commit made before it by another connection (another
 * process's handle) at once, and never holds a snapshot: the other handle's clean stop still
 * folds the whole WAL back into the file while this one stays open. The store's change mark
 * (`PRAGMA data_version` on that connection) moves with every commit of the other handle; it
 * is asked only when the WAL index's header, read with one `pread`, has moved, and that header
 * moves with every commit, including the first one after a checkpoint starts the WAL again.
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { describe, expect, it, vi } from 'vitest';
import { hashKey, mintKey } from '../../src/server/feed/keys.ts';
import { openStore, sqliteUrlFor } from '../../src/server/store/index.ts';
import { createClient } from '@libsql/client';
import { openPointReader, pointReadPathOf, walIndexHeaderReader, type OpenConnection } from '../../src/server/store/sqlite/pointReads.ts';
import { TEST_DATA_DIR } from '../integration/env.ts';

describe('SQLite point reads', () => {
  it('are made for a database file only', () => {
    expect(pointReadPathOf('file:/data/polyindex.db')).toBe('/data/polyindex.db');
    expect(pointReadPathOf(':memory:')).toBeNull();
    expect(pointReadPathOf('file::memory:')).toBeNull();
    expect(pointReadPathOf('file:/data/x.db?mode=ro')).toBeNull();
    expect(pointReadPathOf('libsql://db.example.turso.io')).toBeNull();
  });

  it("see another handle's commits at once and hold no snapshot", async () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'point-reads-'));
    const url = sqliteUrlFor(dir);
    const reader = await openStore({ url });
    const writer = await openStore({ url });
    try {
      const { key, id } = mintKey();
      expect(await reader.findApiKey(id)).toBeNull();
      // The change mark: the same while nothing is written, another after any commit (the writer's here).
      const mark = reader.changeMark();
      expect(mark).toEqual(expect.any(Number));
      expect(reader.changeMark()).toBe(mark);
      await writer.createApiKey({ id, ownerUid: 'u1', name: 'first', hash: hashKey(key), createdAt: new Date().toISOString(), urlKey: false, ratePerMinute: 60, monthlyQuota: 100 }, { uid: 'u1', email: null });
      expect(reader.changeMark()).not.toBe(mark);
      expect(await reader.findApiKey(id)).toMatchObject({ id, ownerUid: 'u1', name: 'first', urlKey: false, ratePerMinute: 60 });
      await writer.createUser({ uid: 'u1', displayName: 'One', email: 'one@firm.test', phone: null, photoURL: null, role: 'user', subscribed: true, plan: 'Platinum', expiresAt: '2030-01-01T00:00:00.000Z', createdAt: '01-01-2026' });
      expect(await reader.cachedUser('u1', { fresh: true })).toMatchObject({ uid: 'u1', plan: 'Platinum' });
      await writer.updateUsersBy('uid', 'u1', { plan: 'Premium' });
      expect(await reader.cachedUser('u1', { fresh: true })).toMatchObject({ plan: 'Premium' });
      expect(await writer.deleteApiKey('u1', id, { uid: 'u1', email: null }, new Date())).not.toBeNull();
      expect(await reader.findApiKey(id)).toBeNull();

      // The writer stops while the reader stays open: its checkpoint empties the WAL only if no
      // connection of the reader is inside a read transaction.
      await writer.close();
      const wal = `${url.slice('file:'.length)}-wal`;
      expect(statSync(wal).size).toBe(0);
    } finally {
      await reader.close();
    }
  });

  it('read again on a new connection after an I/O error, with a warning, and never repeat a change mark', async () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'point-reads-io-'));
    const url = sqliteUrlFor(dir);
    const writer = await openStore({ url });
    const { key, id } = mintKey();
    await writer.createApiKey({ id, ownerUid: 'u1', name: 'first', hash: hashKey(key), createdAt: new Date().toISOString(), urlKey: false, ratePerMinute: 60, monthlyQuota: 100 }, { uid: 'u1', email: null });
    // libSQL's connection, whose reads of api_keys fail as often as `failures` says (as the
    // loaded suite once met: "disk I/O error" preparing a point read; here preparing or reading).
    let failures = 0;
    let opened = 0;
    const open: OpenConnection = (path, options) => {
      opened += 1;
      const db = new Database(path, options);
      const prepare = db.prepare.bind(db);
      const fail = () => {
        if (failures === 0) return;
        failures -= 1;
        throw new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_SHORT_READ', 522);
      };
      db.prepare = ((sql: string) => {
        if (!sql.includes('api_keys')) return prepare(sql);
        fail();
        const statement = prepare(sql);
        const get = statement.get.bind(statement);
        statement.get = ((...args: unknown[]) => (fail(), get(...args))) as typeof statement.get;
        return statement;
      }) as typeof db.prepare;
      return db;
    };
    const reader = openPointReader(url.slice('file:'.length), { open });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const before = reader.dataVersion();
      failures = 1;
      expect(reader.get('api_keys', 'id', id)).toMatchObject({ id, owner_uid: 'u1' });
      expect(opened).toBe(2);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('SQLITE_IOERR_SHORT_READ'));
      // The new connection's data_version starts again; its marks are past every earlier one.
      expect(reader.dataVersion()).toBeGreaterThan(before);
      // A second failure in a row is the caller's.
      failures = 2;
      expect(() => reader.get('api_keys', 'id', 'another')).toThrow('disk I/O error');
      // Other errors are not retried.
      expect(() => reader.get('no_such_table', 'id', id)).toThrow(/no such table/);
      expect(opened).toBe(3);
    } finally {
      warn.mockRestore();
      reader.close();
      await writer.close();
    }
  });

  it("reads the WAL index's header, which moves with every commit and only then", async () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'point-reads-'));
    const url = sqliteUrlFor(dir);
    const path = url.slice('file:'.length);
    const writer = await openStore({ url });
    const reader = openPointReader(path);
    const header = walIndexHeaderReader(`${path}-shm`);
    const shmInode = statSync(`${path}-shm`).ino;
    try {
      expect(header).not.toBeNull();
      const seen = () => Buffer.from(header!.read()!);
      const marks: number[] = [reader.changeMark()];
      let before = seen();
      // Nothing written: the same header, the same mark (no statement needed to say so).
      expect(seen()).toEqual(before);
      expect(reader.changeMark()).toBe(marks[0]);
      await writer.createUser({ uid: 'u1', displayName: 'One', email: 'one@firm.test', phone: null, photoURL: null, role: 'user', subscribed: false, plan: null, expiresAt: null, createdAt: '01-01-2026' });
      for (let n = 0; n < 5; n++) {
        await writer.updateUsersBy('uid', 'u1', { displayName: `One ${n}` });
        const after = seen();
        expect(after).not.toEqual(before);
        before = after;
        const mark = reader.changeMark();
        expect(marks).not.toContain(mark);
        marks.push(mark);
        expect(reader.changeMark()).toBe(mark);
        expect(reader.dataVersion()).toBe(mark);
      }
      // A checkpoint that empties the WAL, then a commit that starts it again from its first frame:
      // the header moves (new salts), and so does the mark.
      const beforeCheckpoint = reader.changeMark();
      const third = createClient({ url });
      await third.execute('PRAGMA wal_checkpoint(TRUNCATE)');
      third.close();
      expect(statSync(`${path}-wal`).size).toBe(0);
      const afterCheckpoint = reader.changeMark();
      await writer.updateUsersBy('uid', 'u1', { displayName: 'One again' });
      const restarted = reader.changeMark();
      expect(restarted).not.toBe(afterCheckpoint);
      expect(restarted).not.toBe(beforeCheckpoint);
      expect(reader.dataVersion()).toBe(restarted);

      // Every other handle closes (the last one checkpoints), a new one opens and commits: this
      // reader's connection kept the index file in place, so its header still moves.
      await writer.close();
      expect(statSync(`${path}-shm`).ino).toBe(shmInode);
      const later = await openStore({ url });
      try {
        await later.updateUsersBy('uid', 'u1', { displayName: 'One, later' });
        expect(reader.changeMark()).not.toBe(restarted);
        expect(statSync(`${path}-shm`).ino).toBe(shmInode);
      } finally {
        await later.close();
      }
    } finally {
      header?.close();
      reader.close();
      await writer.close().catch(() => undefined);
    }
  });

  it('asks the statement alone for a database not in WAL mode (no index file to read)', () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'point-reads-'));
    const path = join(dir, 'rollback.db');
    const other = new Database(path);
    other.exec('PRAGMA journal_mode = DELETE; CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)');
    const reader = openPointReader(path);
    try {
      expect(walIndexHeaderReader(`${path}-shm`)).toBeNull();
      const mark = reader.changeMark();
      expect(reader.changeMark()).toBe(mark);
      other.exec("INSERT INTO t VALUES ('a', 'b')");
      expect(reader.changeMark()).not.toBe(mark);
      expect(reader.get('t', 'k', 'a')).toMatchObject({ v: 'b' });
    } finally {
      reader.close();
      other.close();
    }
  });

  it('takes no header that is not whole: two copies that differ, or an index not yet built', () => {
    const dir = mkdtempSync(join(TEST_DATA_DIR, 'point-reads-'));
    const shm = join(dir, 'made.db-shm');
    const whole = Buffer.alloc(136);
    whole[12] = 1;
    whole.writeUInt32LE(7, 8);
    whole.copy(whole, 48, 0, 48);
    writeFileSync(shm, whole);
    const header = walIndexHeaderReader(shm)!;
    try {
      expect(header.read()?.readUInt32LE(8)).toBe(7);
      // A writer between its two copies (the second copy is written first).
      const torn = Buffer.from(whole);
      torn.writeUInt32LE(8, 48 + 8);
      writeFileSync(shm, torn);
      expect(header.read()).toBeNull();
      const unbuilt = Buffer.alloc(136);
      writeFileSync(shm, unbuilt);
      expect(header.read()).toBeNull();
    } finally {
      header.close();
    }
  });
});
