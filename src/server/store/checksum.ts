/**
 * Counts and checksums that prove a store copy or a backup complete (`npm run store:copy`,
 * `npm run backup`). Both sides of a copy are summarized by this code whatever their backend.
 *
 * - A record's canonical form is its JSON with object keys sorted recursively (arrays keep
 *   their order; `undefined` fields are dropped as JSON drops them; numbers as JSON writes
 *   them, so `1` and `1.0` agree and `-0` is `0`).
 * - A kind's checksum is the SHA-256 (hex, node:crypto) of the lines
 *   `{identity}\t{SHA-256 of the canonical record}\n`, sorted by identity: records are fed in
 *   any order, and only identities and digests are held, never the records (a kind may be
 *   large). The identity fields are the registry's (./kinds.ts).
 */
import { createHash } from 'node:crypto';
import { RECORD_KINDS, type TransferKind } from './kinds.ts';

/** Canonical JSON: object keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value)) ?? 'null';
}

function sortedKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortedKeys(item)));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).toSorted()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined && typeof item !== 'function') out[key] = sortedKeys(item);
  }
  return out;
}

/**
 * A record's identity as text that sorts like the identity: fields joined by U+0000, integers
 * zero-padded (audit ids sort numerically).
 */
export function identityOf(kind: TransferKind, record: object): string {
  const fields: readonly string[] = RECORD_KINDS[kind].identity;
  return fields
    .map((field) => {
      const value = (record as Record<string, unknown>)[field];
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return String(value).padStart(16, '0');
      return typeof value === 'string' ? value : canonicalJson(value);
    })
    .join('\u0000');
}

export interface KindSummary {
  readonly count: number;
  /** SHA-256, hex. */
  readonly checksum: string;
}

export interface ChecksumAccumulator {
  add(records: Iterable<object>): void;
  /** Count and checksum of everything added (the accumulator may be used on after it). */
  summary(): KindSummary;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export function checksumOf(kind: TransferKind): ChecksumAccumulator {
  const lines: string[] = [];
  return {
    add(records) {
      for (const record of records) lines.push(`${identityOf(kind, record)}\t${sha256Hex(canonicalJson(record))}\n`);
    },
    summary() {
      // Code-unit order (not locale order): the same on every machine.
      const sorted = lines.toSorted((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const hash = createHash('sha256');
      for (const line of sorted) hash.update(line, 'utf8');
      return { count: lines.length, checksum: hash.digest('hex') };
    },
  };
}

/** Count and checksum of records at hand. */
export function summarize(kind: TransferKind, records: Iterable<object>): KindSummary {
  const accumulator = checksumOf(kind);
  accumulator.add(records);
  return accumulator.summary();
}
