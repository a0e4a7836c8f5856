/**
 * The readable text of a raw RFC 822 message, pure: the first `text/plain` part (or the body of
 * a single-part message), its transfer encoding (quoted-printable, base64) undone. The admin
 * outbox shows this as text, never as HTML.
 */

export interface MimeText {
  readonly text: string;
  /** True when a text/plain part was found; false when the raw body is shown as it is. */
  readonly decoded: boolean;
}

const splitHead = (raw: string): { head: string; body: string } => {
  const match = /\r?\n\r?\n/.exec(raw);
  return match ? { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) } : { head: raw, body: '' };
};

const header = (head: string, name: string): string => {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : '';
};

function bytesOf(text: string, encoding: string): Uint8Array {
  if (encoding === 'base64') {
    const clean = text.replace(/[^A-Za-z0-9+/=]/g, '');
    return Uint8Array.from(atob(clean), (c) => c.charCodeAt(0));
  }
  if (encoding === 'quoted-printable') {
    const soft = text.replace(/=\r?\n/g, '');
    const out: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      const hex = soft.slice(i + 1, i + 3);
      if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
        out.push(parseInt(hex, 16));
        i += 2;
      } else {
        out.push(...new TextEncoder().encode(soft[i]!));
      }
    }
    return Uint8Array.from(out);
  }
  return new TextEncoder().encode(text);
}

function decodePart(head: string, body: string): string {
  const encoding = header(head, 'content-transfer-encoding').toLowerCase();
  return new TextDecoder('utf-8').decode(bytesOf(body, encoding));
}

function findPlain(head: string, body: string, depth: number): string | null {
  const type = header(head, 'content-type').toLowerCase();
  if (type.startsWith('multipart/') && depth < 5) {
    const boundary = /boundary="?([^";]+)"?/i.exec(header(head, 'content-type'))?.[1];
    if (!boundary) return null;
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitHead(chunk.replace(/^\r?\n/, ''));
      const found = findPlain(part.head, part.body, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  if (type === '' || type.startsWith('text/plain')) return decodePart(head, body).replace(/\r?\n$/, '');
  return null;
}

export function mimeText(raw: string): MimeText {
  const { head, body } = splitHead(raw);
  const text = findPlain(head, body, 0);
  return text === null ? { text: raw, decoded: false } : { text, decoded: true };
}
