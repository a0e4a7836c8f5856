/**
 * The embedded default's stand-ins (Auth emulator, sandbox payments, a Firestore emulator) trust unsigned tokens and
 * local signatures, so they may only ever serve loopback. One rule, read by the start script
 * and by the server itself.
 */

export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

export interface Modes {
  readonly host: string;
  /** No Firebase service account: the Auth emulator answers sign-ins. */
  readonly authEmulator: boolean;
  /** No Razorpay keys: the local sandbox gateway takes payments. */
  readonly sandboxPayments: boolean;
  /** The store is a Firestore emulator (no security rules, no durability). */
  readonly firestoreEmulator?: boolean | undefined;
  /** No WhatsApp Business account: messages go to the outbox and the sandbox phone signs webhooks. */
  readonly whatsappSandbox?: boolean | undefined;
}

/** Why this configuration must not start; empty when it may. */
export function unsafeModeReasons({ host, authEmulator, sandboxPayments, firestoreEmulator = false, whatsappSandbox = false }: Modes): string[] {
  if (isLoopbackHost(host)) return [];
  const reasons: string[] = [];
  if (authEmulator) reasons.push(`the Firebase Auth emulator accepts unsigned tokens; set FIREBASE_SERVICE_ACCOUNT to serve ${host}`);
  if (sandboxPayments) reasons.push(`sandbox payments are signed with a local secret; set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET to serve ${host}`);
  if (firestoreEmulator) reasons.push(`the store is a Firestore emulator (FIRESTORE_EMULATOR_HOST); use a real Firestore project to serve ${host}`);
  if (whatsappSandbox) reasons.push(`the WhatsApp sandbox signs webhooks with a local secret; set WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID to serve ${host}`);
  return reasons;
}
