/**
 * Price delivery in this server: the services built once per process from the configuration
 * (src/server/config). WhatsApp goes to the Cloud API when WHATSAPP_TOKEN and
 * WHATSAPP_PHONE_NUMBER_ID are set, otherwise to the sandbox outbox under
 * DATA_DIR/whatsapp-outbox (loopback only, see src/lib/modes.ts).
 */
import { join } from 'node:path';
import { config } from '../config/index.ts';
import { keptSecret } from '../config/keptSecret.ts';
import { sendMail } from '../mail/index.ts';
import { store } from '../runtime.ts';
import { forecastSource } from '../forecasts/index.ts';
import type { ForecastSource } from '../forecasts/source.ts';
import { createBotLimiter } from './bot.ts';
import type { DeliveryDeps } from './dispatch.ts';
import { storeProducerPrices, type ProducerPriceSource } from './producerPrices.ts';
import { createCloudApiSender, createOutboxSender, type WhatsAppSender } from './whatsapp.ts';

const { dataDir, whatsapp } = config;

export const whatsappMode: 'cloud' | 'sandbox' = config.modes.whatsappSandbox ? 'sandbox' : 'cloud';
export const whatsappOutboxDir = join(dataDir, 'whatsapp-outbox');
/** Where the sandbox phone keeps what it "sent" (the inbound side of its conversations). */
export const sandboxPhoneDir = join(dataDir, 'whatsapp-sandbox');
/** The phone number id the sandbox's webhooks name. */
export const SANDBOX_PHONE_NUMBER_ID = 'sandbox';

/** The app secret webhooks are signed with: Meta's, or in the sandbox one kept in DATA_DIR. Null: webhooks are refused (503). */
export const webhookAppSecret = (): string | null => whatsapp.appSecret ?? (whatsappMode === 'sandbox' ? keptSecret(dataDir, 'whatsapp-sandbox-app-secret') : null);
export const webhookVerifyToken = (): string | null => whatsapp.verifyToken ?? (whatsappMode === 'sandbox' ? keptSecret(dataDir, 'whatsapp-sandbox-verify-token') : null);

/** The bearer secret of POST /api/jobs/daily-update; without it the endpoint does not exist (404). */
export const jobsSecret: string | null = config.jobs.secret;

/** Whether this process runs the hourly delivery job itself (JOBS_SCHEDULER=off: an external scheduler does). */
export const inServerScheduler: boolean = config.jobs.inServerScheduler;

/** The public origin in links (the build's `site`, from SITE_URL). */
export const siteUrl: string = import.meta.env.SITE ?? 'http://127.0.0.1:4321';

let sender: WhatsAppSender | undefined;
export function whatsappSender(): WhatsAppSender {
  sender ??=
    whatsappMode === 'cloud'
      ? createCloudApiSender({ token: whatsapp.token!, phoneNumberId: whatsapp.phoneNumberId!, baseUrl: whatsapp.graphUrl })
      : createOutboxSender(whatsappOutboxDir);
  return sender;
}

const limiter = createBotLimiter();

/** Hours after its hour a daily update may still go (DELIVERY_WINDOW_HOURS, 1–12; 3 by default). */
export const windowHours: number = config.deliveryWindowHours;

/** The delivery services of this process (the store opened once by runtime.ts). */
export async function deliveryDeps(): Promise<DeliveryDeps & { readonly limiter: typeof limiter; readonly windowHours: number; readonly producerPrices: ProducerPriceSource; readonly forecasts: ForecastSource }> {
  const opened = await store();
  return {
    windowHours,
    store: opened,
    producerPrices: storeProducerPrices(opened),
    whatsapp: whatsappSender(),
    sendMail,
    siteUrl,
    linkSecret: keptSecret(dataDir, 'delivery-link-secret', config.deliveryLinkSecret),
    now: () => new Date(),
    limiter,
    forecasts: await forecastSource(),
  };
}
