/**
 * The local outbox: every message of the embedded default as one RFC 822 `.eml` file under
 * `DATA_DIR/outbox/`. File names sort by time: `{ISO instant}-{message id}.eml`. The admin
 * area lists and reads them through `listOutbox` / `readOutboxMessage`.
 */
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';

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
      const { date, from, to, replyTo, subject, messageId } = await readMail(raw);
      return { file, size: info.size, date, from, to, replyTo, subject, messageId };
    }),
  );
}

/** A raw message as the outbox shows it, read by mailparser (RFC 2047 words, transfer encodings, multipart). */
export interface ReadMail {
  readonly date: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly replyTo: string | null;
  readonly subject: string | null;
  readonly messageId: string | null;
  /** The text/plain part (or a single-part body), decoded; null when the message has none (or it is empty). */
  readonly text: string | null;
  /** A top-level header as written (unfolded, words not decoded): for headers such as List-Unsubscribe. */
  header(name: string): string | null;
}

const addressText = (value: AddressObject | AddressObject[] | undefined): string | null =>
  value === undefined ? null : (Array.isArray(value) ? value.map((a) => a.text).join(', ') : value.text) || null;

export async function readMail(raw: string): Promise<ReadMail> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const header = (name: string): string | null => {
    const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
    return line === undefined ? null : line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
  };
  return {
    date: header('date'),
    from: addressText(mail.from),
    to: addressText(mail.to),
    replyTo: addressText(mail.replyTo),
    subject: mail.subject ?? null,
    messageId: mail.messageId ?? null,
    // mailparser joins the text of a mixed message's parts with line breaks: the blank lines around go.
    text: (mail.text ?? '').replace(/^(\r?\n)+|(\r?\n)+$/g, '') || null,
    header,
  };
}
