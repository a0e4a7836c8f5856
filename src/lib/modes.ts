/**
 * The embedded default's stand-ins (Auth emulator, sandbox payments, a Firestore emulator) trust unsigned tokens and
 * local signatures, so they may only ever serve loopback. One rule, read by the start script
 * and by the server itself.
 */

export function isLoopbackHost(host: string): boolean {
  // `::ffff:127.0.0.1` is how a dual-stack socket reports an IPv4 loopback peer.
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/^::ffff:/, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Emulator mode: no Firebase service account (an empty one counts as none). The one rule:
 * runtime.ts exports it as `authEmulator`, scripts/start.mjs asks it too.
 */
export const isAuthEmulatorMode = (serviceAccountJson: string | undefined): boolean => !serviceAccountJson;

export interface Modes {
  readonly host: string;
  /** No Firebase service account: the Auth emulator answers sign-ins. */
  readonly authEmulator: boolean;
  /** FIREBASE_AUTH_EMULATOR_HOST as configured: firebase-admin obeys it whatever the mode. */
  readonly authEmulatorHost?: string | undefined;
  /** No Razorpay keys: the local sandbox gateway takes payments. */
  readonly sandboxPayments: boolean;
  /** The store is a Firestore emulator (no security rules, no durability). */
  readonly firestoreEmulator?: boolean | undefined;
  /** No WhatsApp Business account: messages go to the outbox and the sandbox phone signs webhooks. */
  readonly whatsappSandbox?: boolean | undefined;
  /** DELIVERY_LINK_SECRET is set (without it each instance signs unsubscribe links with its own kept secret). */
  readonly deliveryLinkSecret?: boolean | undefined;
}

export const AUTH_EMULATOR_HOST_IN_REAL_MODE =
  'FIREBASE_AUTH_EMULATOR_HOST is set beside FIREBASE_SERVICE_ACCOUNT: firebase-admin would then accept the emulator\'s unsigned tokens; unset FIREBASE_AUTH_EMULATOR_HOST';

/** Why this configuration must not start; empty when it may. */
export function unsafeModeReasons({ host, authEmulator, authEmulatorHost, sandboxPayments, firestoreEmulator = false, whatsappSandbox = false, deliveryLinkSecret = false }: Modes): string[] {
  // Beside a service account, firebase-admin would still take the emulator's unsigned tokens: refused on every host.
  const reasons: string[] = !authEmulator && authEmulatorHost ? [AUTH_EMULATOR_HOST_IN_REAL_MODE] : [];
  if (isLoopbackHost(host)) return reasons;
  if (authEmulator) reasons.push(`the Firebase Auth emulator accepts unsigned tokens; set FIREBASE_SERVICE_ACCOUNT to serve ${host}`);
  if (sandboxPayments) reasons.push(`sandbox payments are signed with a local secret; set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET to serve ${host}`);
  if (firestoreEmulator) reasons.push(`the store is a Firestore emulator (FIRESTORE_EMULATOR_HOST); use a real Firestore project to serve ${host}`);
  if (whatsappSandbox) reasons.push(`the WhatsApp sandbox signs webhooks with a local secret; set WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID to serve ${host}`);
  if (!deliveryLinkSecret) reasons.push(`unsubscribe links would be signed with a secret kept in DATA_DIR, one per instance, so a link from one instance fails on another; set DELIVERY_LINK_SECRET to serve ${host}`);
  return reasons;
}

/** No WhatsApp Business account configured: the outbox and the sandbox phone (the one rule; runtime, delivery and `npm start` read it). */
export const whatsappSandboxOf = (env: { readonly WHATSAPP_TOKEN?: string | undefined; readonly WHATSAPP_PHONE_NUMBER_ID?: string | undefined }): boolean =>
  !(env.WHATSAPP_TOKEN?.trim() && env.WHATSAPP_PHONE_NUMBER_ID?.trim());

/**
 * This server's own address on loopback, from its HOST and PORT (what it listens on): the
 * sandbox phone posts its webhooks here, never to an origin taken from a request's Host header.
 * The sandbox only serves loopback, so a HOST beyond it is not expected; 127.0.0.1 then.
 */
export function loopbackOriginOf(host: string | undefined, port: string | undefined): string {
  const h = host?.trim() ? host.trim() : 'localhost';
  const name = isLoopbackHost(h) ? h.replace(/^\[|\]$/g, '') : '127.0.0.1';
  const p = port?.trim() && /^\d{1,5}$/.test(port.trim()) ? port.trim() : '4321';
  return `http://${name.includes(':') ? `[${name}]` : name}:${p}`;
}
