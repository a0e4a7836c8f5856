/**
 * Signed links in delivery mail: one-click unsubscribe (RFC 8058) from the daily update, or
 * from one alert, without signing in. The token names the user and what to stop, and carries an
 * HMAC-SHA256 of that under the link secret; nothing else is trusted from the link.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { absoluteLink } from '../../lib/delivery/messages.ts';
import { ONE_CLICK_UNSUBSCRIBE_PATH, UNSUBSCRIBE_PAGE_PATH } from '../../lib/delivery/paths.ts';

export type UnsubscribeTarget = { readonly uid: string; readonly what: 'daily' } | { readonly uid: string; readonly what: 'alert'; readonly alertId: string };

const encode = (target: UnsubscribeTarget): string =>
  Buffer.from(JSON.stringify(target.what === 'daily' ? [target.uid, 'daily'] : [target.uid, 'alert', target.alertId])).toString('base64url');

const mac = (secret: string, payload: string): string => createHmac('sha256', secret).update(`unsubscribe:${payload}`).digest('base64url');

export function unsubscribeToken(secret: string, target: UnsubscribeTarget): string {
  const payload = encode(target);
  return `${payload}.${mac(secret, payload)}`;
}

/** The target of a token whose signature holds, else null (never throws on any input). */
export function readUnsubscribeToken(secret: string, token: string): UnsubscribeTarget | null {
  if (token.length > 600) return null;
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parts: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(parts) || !parts.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 128)) return null;
    if (parts.length === 2 && parts[1] === 'daily') return { uid: parts[0] as string, what: 'daily' };
    if (parts.length === 3 && parts[1] === 'alert') return { uid: parts[0] as string, what: 'alert', alertId: parts[2] as string };
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
