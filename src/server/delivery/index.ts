/**
 * Price delivery in this server: the configuration from astro:env and the services built from
 * it once per process (the only delivery module that reads astro:env). WhatsApp goes to the
 * Cloud API when WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID are set, otherwise to the sandbox
 * outbox under DATA_DIR/whatsapp-outbox (loopback only, see src/lib/modes.ts).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  DELIVERY_LINK_SECRET,
  DELIVERY_WINDOW_HOURS,
  JOBS_SCHEDULER,
  JOBS_SECRET,
  WHATSAPP_APP_SECRET,
  WHATSAPP_GRAPH_URL,
  WHATSAPP_PHONE_NUMBER_ID,
  WHATSAPP_TOKEN,
  WHATSAPP_VERIFY_TOKEN,
} from 'astro:env/server';
import { deliveryWindowHours } from '../../lib/delivery/schedule.ts';
import { whatsappSandboxOf } from '../../lib/modes.ts';
import { sendMail } from '../mail/index.ts';
import { dataDir, store } from '../runtime.ts';
import { createBotLimiter } from './bot.ts';
import type { DeliveryDeps } from './dispatch.ts';
import { createCloudApiSender, createOutboxSender, type WhatsAppSender } from './whatsapp.ts';

export const whatsappMode: 'cloud' | 'sandbox' = whatsappSandboxOf({ WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID }) ? 'sandbox' : 'cloud';
export const whatsappOutboxDir = join(dataDir, 'whatsapp-outbox');
/** Where the sandbox phone keeps what it "sent" (the inbound side of its conversations). */
export const sandboxPhoneDir = join(dataDir, 'whatsapp-sandbox');
/** The phone number id the sandbox's webhooks name. */
export const SANDBOX_PHONE_NUMBER_ID = 'sandbox';

/** A secret from the configuration, or one kept in DATA_DIR (made on first use, 0600). */
export function keptSecret(configured: string | undefined, file: string): string {
  if (configured) return configured;
  const path = join(dataDir, file);
  if (existsSync(path)) {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept) return kept;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    writeFileSync(path, `${secret}\n`, { flag: 'wx', mode: 0o600 });
  } catch {
    // Another process wrote it first: use theirs.
    return readFileSync(path, 'utf8').trim();
  }
  chmodSync(path, 0o600);
  return secret;
}

/** The app secret webhooks are signed with: Meta's, or in the sandbox one kept in DATA_DIR. Null: webhooks are refused (503). */
export const webhookAppSecret = (): string | null => WHATSAPP_APP_SECRET ?? (whatsappMode === 'sandbox' ? keptSecret(undefined, 'whatsapp-sandbox-app-secret') : null);
export const webhookVerifyToken = (): string | null => WHATSAPP_VERIFY_TOKEN ?? (whatsappMode === 'sandbox' ? keptSecret(undefined, 'whatsapp-sandbox-verify-token') : null);

/** The bearer secret of POST /api/jobs/daily-update; without it the endpoint does not exist (404). */
export const jobsSecret: string | null = JOBS_SECRET?.trim() ? JOBS_SECRET.trim() : null;

/** Whether this process runs the hourly delivery job itself (JOBS_SCHEDULER=off: an external scheduler does). */
export const inServerScheduler: boolean = JOBS_SCHEDULER !== 'off';

/** The public origin in links (the build's `site`, from SITE_URL). */
export const siteUrl: string = import.meta.env.SITE ?? 'http://127.0.0.1:4321';

let sender: WhatsAppSender | undefined;
export function whatsappSender(): WhatsAppSender {
  sender ??=
    whatsappMode === 'cloud'
      ? createCloudApiSender({ token: WHATSAPP_TOKEN!, phoneNumberId: WHATSAPP_PHONE_NUMBER_ID!, baseUrl: WHATSAPP_GRAPH_URL })
      : createOutboxSender(whatsappOutboxDir);
  return sender;
}

const limiter = createBotLimiter();

/** Hours after its hour a daily update may still go (DELIVERY_WINDOW_HOURS, 1–12; 3 by default). */
export const windowHours: number = deliveryWindowHours(DELIVERY_WINDOW_HOURS);

/** The delivery services of this process (the store opened once by runtime.ts). */
export async function deliveryDeps(): Promise<DeliveryDeps & { readonly limiter: typeof limiter; readonly windowHours: number }> {
  return {
    windowHours,
    store: await store(),
    whatsapp: whatsappSender(),
    sendMail,
    siteUrl,
    linkSecret: keptSecret(DELIVERY_LINK_SECRET, 'delivery-link-secret'),
    now: () => new Date(),
    limiter,
  };
}
