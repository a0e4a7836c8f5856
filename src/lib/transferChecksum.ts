/**
 * Counts and checksums that prove a store copy complete (`npm run store:copy`). Pure: no I/O, so
 * both sides of a copy are summarized by the same code whatever their backend.
 *
 * - A record's canonical form is its JSON with object keys sorted recursively (arrays keep
 *   their order; `undefined` fields are dropped as JSON drops them; numbers as JSON writes
 *   them, so `1` and `1.0` agree and `-0` is `0`).
 * - A kind's checksum is the SHA-256 (hex) of the lines `{identity}\t{SHA-256 of the canonical
 *   record}\n`, sorted by identity: records are fed in any order, and only identities and
 *   digests are held, never the records (a kind may be large).
 */

/** The fields that identify a record of each kind (the keys `importRecords` upserts by). */
export const IDENTITY_FIELDS = {
  users: ['uid'],
  orders: ['id'],
  paymentEvents: ['id'],
  series: ['id'],
  points: ['seriesId', 'date'],
  cityPrices: ['city', 'date', 'grade'],
  offers: ['country', 'date'],
  banners: ['id'],
  posts: ['id'],
  audit: ['id'],
  savedViews: ['id'],
  /** Banner image records (name, content type, base64 bytes), once the port carries them. */
  bannerImages: ['name'],
  deliverySettings: ['uid'],
  alerts: ['id'],
  whatsappContacts: ['number'],
  deliveryLog: ['key'],
} as const satisfies Record<string, readonly string[]>;

export type IdentifiedKind = keyof typeof IDENTITY_FIELDS;

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
export function identityOf(kind: IdentifiedKind, record: object): string {
  const fields: readonly string[] = IDENTITY_FIELDS[kind];
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

export function checksumOf(kind: IdentifiedKind): ChecksumAccumulator {
  const lines: string[] = [];
  return {
    add(records) {
      for (const record of records) lines.push(`${identityOf(kind, record)}\t${sha256Hex(canonicalJson(record))}\n`);
    },
    summary() {
      // Code-unit order (not locale order): the same on every machine.
      const sorted = lines.toSorted((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const hash = createSha256();
      for (const line of sorted) hash.update(line);
      return { count: lines.length, checksum: hash.digest() };
    },
  };
}

/** Count and checksum of records at hand. */
export function summarize(kind: IdentifiedKind, records: Iterable<object>): KindSummary {
  const accumulator = checksumOf(kind);
  accumulator.add(records);
  return accumulator.summary();
}

// SHA-256 (FIPS 180-4) over UTF-8 text, incremental. Written out because src/lib may not reach
// node:crypto, and WebCrypto's digest is neither incremental nor synchronous.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export interface Sha256 {
  update(text: string): void;
  /** Hex digest; the hash cannot be updated after it. */
  digest(): string;
}

export function createSha256(): Sha256 {
  const state = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const block = new Uint8Array(64);
  const w = new Uint32Array(64);
  let filled = 0;
  let length = 0;
  const encoder = new TextEncoder();

  const compress = () => {
    for (let i = 0; i < 16; i++) w[i] = (block[i * 4]! << 24) | (block[i * 4 + 1]! << 16) | (block[i * 4 + 2]! << 8) | block[i * 4 + 3]!;
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let [a, b, c, d, e, f, g, h] = state as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[i]! + w[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    state[0] = state[0]! + a;
    state[1] = state[1]! + b;
    state[2] = state[2]! + c;
    state[3] = state[3]! + d;
    state[4] = state[4]! + e;
    state[5] = state[5]! + f;
    state[6] = state[6]! + g;
    state[7] = state[7]! + h;
  };

  const push = (bytes: Uint8Array) => {
    for (const byte of bytes) {
      block[filled++] = byte;
      if (filled === 64) {
        compress();
        filled = 0;
      }
    }
  };

  return {
    update(text) {
      const bytes = encoder.encode(text);
      length += bytes.length;
      push(bytes);
    },
    digest() {
      const bits = length * 8;
      const tail = new Uint8Array(((filled < 56 ? 56 : 120) - filled) + 8);
      tail[0] = 0x80;
      const view = new DataView(tail.buffer);
      view.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
      view.setUint32(tail.length - 4, bits >>> 0);
      push(tail);
      return [...state].map((word) => word.toString(16).padStart(8, '0')).join('');
    },
  };
}

/** SHA-256 of one text, hex. */
export function sha256Hex(text: string): string {
  const hash = createSha256();
  hash.update(text);
  return hash.digest();
}
