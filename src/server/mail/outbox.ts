/**
 * The local outbox: every message of the embedded default as one RFC 822 `.eml` file under
 * `DATA_DIR/outbox/`. File names sort by time: `{ISO instant}-{message id}.eml`. The admin
 * area lists and reads them through `listOutbox` / `readOutboxMessage`.
 */
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface OutboxEntry {
  /** File name inside the outbox (the message's id for `readOutboxMessage`). */
  readonly file: string;
  readonly size: number;
  /** Decoded top-level headers of interest. */
  readonly date: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly replyTo: string | null;
  readonly subject: string | null;
  readonly messageId: string | null;
}

/** Only names this module writes are readable: no path tricks. */
const OUTBOX_FILE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[A-Za-z0-9._-]{1,200}\.eml$/;

export const isOutboxFileName = (name: string): boolean => OUTBOX_FILE.test(name);

/** `2026-11-22T10:15:30.123Z` → `2026-11-22T10-15-30-123Z` (sortable and safe on every file system). */
const stamp = (date: Date): string => date.toISOString().replace(/[:.]/g, '-');

/** `<abc@polyindex.test>` → `abc-polyindex.test` */
const safeId = (messageId: string): string =>
  messageId.replace(/^<|>$/g, '').replace(/@/g, '-').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200) || 'message';

/** Writes one message atomically (temporary name, then rename) and returns its file name. */
export async function writeOutboxMessage(dir: string, raw: Buffer, messageId: string, now = new Date()): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = `${stamp(now)}-${safeId(messageId)}.eml`;
  const temporary = join(dir, `.${file}.${process.pid}.tmp`);
  await writeFile(temporary, raw, { mode: 0o600 });
  await rename(temporary, join(dir, file));
  return file;
}

/** The raw message, or null when there is no such file. */
export async function readOutboxMessage(dir: string, file: string): Promise<string | null> {
  if (!isOutboxFileName(file)) return null;
  try {
    return await readFile(join(dir, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Messages, newest first. */
export async function listOutbox(dir: string, limit = 100): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names.filter(isOutboxFileName).sort().reverse().slice(0, limit);
  return Promise.all(
    files.map(async (file) => {
      const path = join(dir, file);
      const [raw, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
      const headers = parseHeaders(raw);
      return {
        file,
        size: info.size,
        date: headers.get('date') ?? null,
        from: headers.get('from') ?? null,
        to: headers.get('to') ?? null,
        replyTo: headers.get('reply-to') ?? null,
        subject: headers.get('subject') ?? null,
        messageId: headers.get('message-id') ?? null,
      };
    }),
  );
}

/** Top-level headers of a raw message: unfolded, names lower-cased, RFC 2047 words decoded. */
export function parseHeaders(raw: string): Map<string, string> {
  const end = raw.search(/\r?\n\r?\n/);
  const block = end === -1 ? raw : raw.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeEncodedWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

/** Decodes `=?UTF-8?B?…?=` and `=?UTF-8?Q?…?=` words (what nodemailer writes for non-ASCII text). */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_word, charset: string, encoding: string, text: string) => {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            );
      try {
        return new TextDecoder(charset.toLowerCase()).decode(bytes);
      } catch {
        return bytes.toString('utf8');
      }
    });
}
