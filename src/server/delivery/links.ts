/**
 * Signed links in delivery mail: one-click unsubscribe (RFC 8058) from the daily update, or
 * from one alert, without signing in. The token names the user, what to stop and when the mail
 * was made, and carries an HMAC-SHA256 of that under the link secret; nothing else is trusted
 * from the link. A link works for UNSUBSCRIBE_LINK_DAYS: an older one (or one made before links
 * carried their time) still names its user truthfully, so its page offers to send a fresh link
 * to that account's own address, and nothing else.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { absoluteLink } from '../../lib/delivery/messages.ts';
import { ONE_CLICK_UNSUBSCRIBE_PATH, UNSUBSCRIBE_PAGE_PATH } from '../../lib/delivery/paths.ts';

/** What a link stops: the daily update by e-mail, the weekly forecast digest (every channel), or one alert. */
export type UnsubscribeTarget = { readonly uid: string; readonly what: 'daily' | 'digest' } | { readonly uid: string; readonly what: 'alert'; readonly alertId: string };

/** How long an unsubscribe link works after the mail that carries it was made (docs/delivery.md). */
export const UNSUBSCRIBE_LINK_DAYS = 60;
const LINK_MS = UNSUBSCRIBE_LINK_DAYS * 86_400_000;

/** A genuine link: what it stops, and whether it is too old to act on. */
export interface UnsubscribeLink {
  readonly target: UnsubscribeTarget;
  readonly expired: boolean;
}

const encode = (target: UnsubscribeTarget, issuedAt: Date): string => {
  const issued = Math.floor(issuedAt.getTime() / 1000);
  return Buffer.from(JSON.stringify(target.what === 'alert' ? [target.uid, 'alert', target.alertId, issued] : [target.uid, target.what, issued])).toString('base64url');
};

const mac = (secret: string, payload: string): string => createHmac('sha256', secret).update(`unsubscribe:${payload}`).digest('base64url');

/** The token of a link made at `issuedAt` (the mail's time). */
export function unsubscribeToken(secret: string, target: UnsubscribeTarget, issuedAt: Date): string {
  const payload = encode(target, issuedAt);
  return `${payload}.${mac(secret, payload)}`;
}

/**
 * The link of a token whose signature holds, expired when it was made UNSUBSCRIBE_LINK_DAYS or
 * more before `now` (or carries no time: made before links expired), else null (never throws).
 */
export function readUnsubscribeToken(secret: string, token: string, now: Date): UnsubscribeLink | null {
  if (token.length > 600) return null;
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parts: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(parts)) return null;
    // The time, when there is one, is the last part: whole seconds.
    const issued: unknown = typeof parts.at(-1) === 'number' ? parts.pop() : null;
    if (issued !== null && !(Number.isSafeInteger(issued) && (issued as number) > 0)) return null;
    if (!parts.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 128)) return null;
    const expired = issued === null || now.getTime() - (issued as number) * 1000 >= LINK_MS;
    if (parts.length === 2 && (parts[1] === 'daily' || parts[1] === 'digest')) return { target: { uid: parts[0] as string, what: parts[1] }, expired };
    if (parts.length === 3 && parts[1] === 'alert') return { target: { uid: parts[0] as string, what: 'alert', alertId: parts[2] as string }, expired };
    return null;
  } catch {
    return null;
  }
}

/** The page a person lands on from the mail body (it asks before it unsubscribes). */
export const unsubscribePageUrl = (siteUrl: string, token: string): string => absoluteLink(siteUrl, `${UNSUBSCRIBE_PAGE_PATH}?token=${encodeURIComponent(token)}`);
/** The RFC 8058 one-click endpoint (List-Unsubscribe with List-Unsubscribe-Post). */
export const oneClickUrl = (siteUrl: string, token: string): string => absoluteLink(siteUrl, `${ONE_CLICK_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`);

/** The headers that let a mail client offer one-click unsubscribe. */
export const listUnsubscribeHeaders = (siteUrl: string, token: string): Record<string, string> => ({
  'List-Unsubscribe': `<${oneClickUrl(siteUrl, token)}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
