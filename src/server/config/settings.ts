/**
 * Every setting the site reads, in one list, and the one reading of them: defaults resolved once,
 * values validated (zod) and typed, the modes derived from them. The server reads its settings
 * through ./index.ts (astro:env, so a `.env` file works under `astro dev`); the scripts
 * (`npm start`, seed, backup, store:copy …) and astro.config.mjs call `readConfig` with
 * `process.env`. Erasable TypeScript with no astro:* import, so Node runs it as it is.
 *
 * `SETTINGS` also makes the astro:env schema (astro.config.mjs): every setting there is
 * `access: 'secret'`, read when the server starts, because public server variables are inlined
 * into the build and one build serves tests, a developer's `npm start` and production
 * (docs/decisions.md). Only the contact details (`inlined`, shown on prerendered pages) are fixed
 * at build time.
 */
import { resolve } from 'node:path';
import { z } from 'astro/zod';
import { deliveryWindowHours } from '../../lib/delivery/schedule.ts';
import { isAuthEmulatorMode, loopbackOriginOf, whatsappSandboxOf } from '../../lib/modes.ts';
import { paymentModeOf } from '../payments/mode.ts';
import type { PaymentMode } from '../payments/gateway.ts';

export interface SettingField {
  /** The value when the variable is unset or blank; without one the setting is optional. */
  readonly default?: string;
  /** The values it may take. */
  readonly values?: readonly string[];
  /** Inlined at build time (astro:env `public`): the contact bar on prerendered pages. */
  readonly inlined?: boolean;
}

/** Every setting, by its name in the environment (README.md's table says what each means). */
export const SETTINGS = {
  HOST: { default: '127.0.0.1' },
  PORT: { default: '4321' },
  SITE_URL: {},
  ASSETS_PREFIX: {},
  DATA_DIR: { default: './data' },
  CONTACT_PHONE: { default: '+91 22 4000 7000', inlined: true },
  CONTACT_GSTIN: { default: '27AABCP1234F1ZU', inlined: true },
  CONTACT_EMAIL: { default: 'desk@polyindex.test', inlined: true },
  // The supplier on GST tax invoices and credit notes (src/server/invoices/supplier.ts): its legal
  // name and registered address ("|" between lines); the GSTIN is CONTACT_GSTIN's.
  INVOICE_LEGAL_NAME: { default: 'PolyIndex Market Data Private Limited' },
  INVOICE_ADDRESS: { default: '402 Trade Centre, Bandra Kurla Complex | Bandra (East), Mumbai 400051' },
  ADMIN_PANEL_URL: { default: '/admin' },
  FIREBASE_PROJECT_ID: { default: 'demo-polyindex' },
  FIREBASE_API_KEY: { default: 'demo-api-key' },
  FIREBASE_AUTH_DOMAIN: {},
  FIREBASE_APP_ID: {},
  FIREBASE_SERVICE_ACCOUNT: {},
  FIREBASE_AUTH_EMULATOR_HOST: {},
  DATA_BACKEND: { default: 'sqlite', values: ['sqlite', 'firestore'] },
  FIRESTORE_EMULATOR_HOST: {},
  FIRESTORE_DATABASE_ID: {},
  LIBSQL_URL: {},
  LIBSQL_AUTH_TOKEN: {},
  RAZORPAY_KEY_ID: {},
  RAZORPAY_KEY_SECRET: {},
  RAZORPAY_WEBHOOK_SECRET: {},
  SANDBOX_PAYMENT_SECRET: {},
  SMTP_URL: {},
  MAIL_FROM: { default: 'PolyIndex <desk@polyindex.test>' },
  OPERATOR_EMAIL: { default: 'desk@polyindex.test' },
  WHATSAPP_TOKEN: {},
  WHATSAPP_PHONE_NUMBER_ID: {},
  WHATSAPP_APP_SECRET: {},
  WHATSAPP_VERIFY_TOKEN: {},
  WHATSAPP_GRAPH_URL: { default: 'https://graph.facebook.com/v21.0' },
  JOBS_SECRET: {},
  JOBS_SCHEDULER: { default: 'on', values: ['on', 'off'] },
  DELIVERY_LINK_SECRET: {},
  // How late after its hour a daily update may still go: 1–12 hours, 3 when unset.
  DELIVERY_WINDOW_HOURS: {},
  // Test only, and only with the Auth emulator: a JSON file `{"offsetDays": n}` that moves the
  // forecasts' clock (src/server/forecasts/clock.ts) n days ahead, read on every use.
  FORECAST_TEST_CLOCK_FILE: {},
  // The data feed: a new API key's requests per minute and per calendar month (docs/decisions.md, "Data feed").
  FEED_RATE_PER_MINUTE: { default: '60' },
  FEED_MONTHLY_QUOTA: { default: '50000' },
} as const satisfies Record<string, SettingField>;

export type SettingName = keyof typeof SETTINGS;

/** Where the Auth emulator listens when FIREBASE_AUTH_EMULATOR_HOST is unset (emulator mode). */
export const DEFAULT_AUTH_EMULATOR_HOST = '127.0.0.1:9099';

/** A blank value (empty, or only spaces) is an unset one; any other is kept as given. */
const optional = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value : undefined));

function fieldSchema(name: string, field: SettingField): z.ZodType<string | undefined> {
  const value = 'values' in field && field.values ? optional.pipe(z.enum(field.values as [string, ...string[]], { error: `${name} must be one of ${field.values.join(', ')}.` }).optional()) : optional;
  return 'default' in field ? value.transform((v) => v ?? field.default) : value;
}

const Raw = z.object(Object.fromEntries(Object.entries(SETTINGS).map(([name, field]) => [name, fieldSchema(name, field)])) as Record<SettingName, z.ZodType<string | undefined>>);

const Port = z.coerce.number({ error: 'PORT must be a port number.' }).int('PORT must be a whole number.').min(0, 'PORT must be 0–65535.').max(65535, 'PORT must be 0–65535.');
const SiteUrl = z.url({ protocol: /^https?$/, error: 'SITE_URL must be an http or https URL.' }).optional();

/** The settings the store is chosen and reached by (src/server/store/open.ts reads them). */
export interface StoreSettings {
  readonly DATA_BACKEND: string;
  readonly DATA_DIR: string;
  readonly LIBSQL_URL: string | undefined;
  readonly LIBSQL_AUTH_TOKEN: string | undefined;
  readonly FIREBASE_PROJECT_ID: string;
  readonly FIREBASE_SERVICE_ACCOUNT: string | undefined;
  readonly FIRESTORE_EMULATOR_HOST: string | undefined;
  readonly FIRESTORE_DATABASE_ID: string | undefined;
}

/** The site's configuration, typed, with every default resolved. */
export interface Config {
  /** The address the server listens on. */
  readonly host: string;
  readonly port: number;
  /** The public origin (build time for canonical URLs; the payments check reads it at run time). */
  readonly siteUrl: string | undefined;
  /** A CDN origin for the hashed /_astro/ files (build time). */
  readonly assetsPrefix: string | undefined;
  /** Absolute. */
  readonly dataDir: string;
  /** FORECAST_TEST_CLOCK_FILE (absolute), only ever set with the Auth emulator. */
  readonly forecastTestClockFile: string | undefined;
  readonly adminPanelUrl: string;
  readonly contact: { readonly phone: string; readonly gstin: string; readonly email: string };
  /** The supplier's legal name and registered address on GST invoices (the GSTIN is the contact's). */
  readonly invoice: { readonly legalName: string; readonly address: string };
  readonly firebase: {
    readonly projectId: string;
    readonly apiKey: string;
    readonly authDomain: string;
    readonly appId: string | undefined;
    readonly serviceAccountJson: string | undefined;
    /** FIREBASE_AUTH_EMULATOR_HOST as set (real mode refuses it: firebase-admin would obey it). */
    readonly authEmulatorHostSetting: string | undefined;
    /** Where the Auth emulator is (emulator mode): the setting, or the default. */
    readonly authEmulatorHost: string;
  };
  readonly store: StoreSettings;
  readonly payments: {
    readonly mode: PaymentMode;
    readonly keyId: string | undefined;
    readonly keySecret: string | undefined;
    readonly webhookSecret: string | undefined;
    readonly sandboxSecret: string | undefined;
  };
  readonly mail: { readonly smtpUrl: string | undefined; readonly from: string; readonly operator: string };
  readonly whatsapp: {
    readonly token: string | undefined;
    readonly phoneNumberId: string | undefined;
    readonly appSecret: string | undefined;
    readonly verifyToken: string | undefined;
    readonly graphUrl: string;
  };
  readonly jobs: {
    /** The bearer secret of POST /api/jobs/daily-update; null: the endpoint does not exist. */
    readonly secret: string | null;
    /** Whether this process runs the hourly delivery job itself. */
    readonly inServerScheduler: boolean;
  };
  readonly deliveryLinkSecret: string | undefined;
  /** Hours after its hour a daily update may still go (1–12). */
  readonly deliveryWindowHours: number;
  /** A new data-feed key's limits. */
  readonly feed: { readonly ratePerMinute: number; readonly monthlyQuota: number };
  readonly modes: {
    /** No service account: the Auth emulator, whose cookies are unsigned. */
    readonly authEmulator: boolean;
    /** No Razorpay keys: the sandbox gateway grants plans without money. */
    readonly sandboxPayments: boolean;
    /** No WhatsApp Business account: the outbox and the sandbox phone. */
    readonly whatsappSandbox: boolean;
    /** The store is a Firestore emulator. */
    readonly firestoreEmulator: boolean;
    /**
     * The stand-ins a stranger could abuse (forged emulator sessions, free sandbox plans): the
     * server then answers only loopback clients that address it by a loopback name and its port.
     */
    readonly loopbackOnly: boolean;
  };
  /** This server's own address on loopback (where the sandbox phone posts its webhooks). */
  readonly loopbackOrigin: string;
}

/** Thrown for settings that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads every setting with `read` (the environment, or astro:env in the server). */
export function readConfig(read: (name: SettingName) => string | undefined): Config {
  const parsed = Raw.safeParse(Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, read(name as SettingName)])));
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => issue.message).join(' '));
  const env = parsed.data as Record<SettingName, string | undefined>;
  const required = (name: SettingName): string => env[name] ?? '';
  const port = Port.safeParse(required('PORT'));
  if (!port.success) throw new ConfigError(port.error.issues[0]!.message);
  const siteUrl = SiteUrl.safeParse(env.SITE_URL);
  if (!siteUrl.success) throw new ConfigError(siteUrl.error.issues[0]!.message);

  const windowSetting = env.DELIVERY_WINDOW_HOURS;
  const windowHours = windowSetting === undefined ? undefined : Number(windowSetting);
  let deliveryWindow: number;
  try {
    deliveryWindow = deliveryWindowHours(windowHours);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }

  const feedLimit = (name: 'FEED_RATE_PER_MINUTE' | 'FEED_MONTHLY_QUOTA'): number => {
    const value = Number(required(name));
    if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`${name} must be a whole number of requests, 1 or more.`);
    return value;
  };
  const feed = { ratePerMinute: feedLimit('FEED_RATE_PER_MINUTE'), monthlyQuota: feedLimit('FEED_MONTHLY_QUOTA') };

  const dataDir = resolve(required('DATA_DIR'));
  const projectId = required('FIREBASE_PROJECT_ID');
  const authEmulator = isAuthEmulatorMode(env.FIREBASE_SERVICE_ACCOUNT);
  const forecastTestClockFile = env.FORECAST_TEST_CLOCK_FILE?.trim() ? resolve(env.FORECAST_TEST_CLOCK_FILE.trim()) : undefined;
  if (forecastTestClockFile && !authEmulator) throw new ConfigError('FORECAST_TEST_CLOCK_FILE is for tests with the Auth emulator only: unset it, or unset FIREBASE_SERVICE_ACCOUNT.');
  const paymentMode = paymentModeOf({ RAZORPAY_KEY_ID: env.RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET: env.RAZORPAY_KEY_SECRET });
  const store: StoreSettings = {
    DATA_BACKEND: required('DATA_BACKEND'),
    DATA_DIR: dataDir,
    LIBSQL_URL: env.LIBSQL_URL,
    LIBSQL_AUTH_TOKEN: env.LIBSQL_AUTH_TOKEN,
    FIREBASE_PROJECT_ID: projectId,
    FIREBASE_SERVICE_ACCOUNT: env.FIREBASE_SERVICE_ACCOUNT,
    FIRESTORE_EMULATOR_HOST: env.FIRESTORE_EMULATOR_HOST,
    FIRESTORE_DATABASE_ID: env.FIRESTORE_DATABASE_ID,
  };
  const host = required('HOST');
  return {
    host,
    port: port.data,
    siteUrl: siteUrl.data,
    assetsPrefix: env.ASSETS_PREFIX,
    dataDir,
    forecastTestClockFile,
    adminPanelUrl: required('ADMIN_PANEL_URL'),
    contact: { phone: required('CONTACT_PHONE'), gstin: required('CONTACT_GSTIN'), email: required('CONTACT_EMAIL') },
    invoice: { legalName: required('INVOICE_LEGAL_NAME'), address: required('INVOICE_ADDRESS') },
    firebase: {
      projectId,
      apiKey: required('FIREBASE_API_KEY'),
      authDomain: env.FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`,
      appId: env.FIREBASE_APP_ID,
      serviceAccountJson: env.FIREBASE_SERVICE_ACCOUNT,
      authEmulatorHostSetting: env.FIREBASE_AUTH_EMULATOR_HOST,
      authEmulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST ?? DEFAULT_AUTH_EMULATOR_HOST,
    },
    store,
    payments: {
      mode: paymentMode,
      keyId: env.RAZORPAY_KEY_ID,
      keySecret: env.RAZORPAY_KEY_SECRET,
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
      sandboxSecret: env.SANDBOX_PAYMENT_SECRET,
    },
    mail: { smtpUrl: env.SMTP_URL, from: required('MAIL_FROM'), operator: required('OPERATOR_EMAIL') },
    whatsapp: {
      token: env.WHATSAPP_TOKEN,
      phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
      appSecret: env.WHATSAPP_APP_SECRET,
      verifyToken: env.WHATSAPP_VERIFY_TOKEN,
      graphUrl: required('WHATSAPP_GRAPH_URL'),
    },
    jobs: { secret: env.JOBS_SECRET?.trim() ?? null, inServerScheduler: env.JOBS_SCHEDULER !== 'off' },
    deliveryLinkSecret: env.DELIVERY_LINK_SECRET,
    deliveryWindowHours: deliveryWindow,
    feed,
    modes: {
      authEmulator,
      sandboxPayments: paymentMode === 'sandbox',
      whatsappSandbox: whatsappSandboxOf({ WHATSAPP_TOKEN: env.WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID: env.WHATSAPP_PHONE_NUMBER_ID }),
      firestoreEmulator: store.DATA_BACKEND === 'firestore' && store.FIRESTORE_EMULATOR_HOST !== undefined,
      loopbackOnly: authEmulator || paymentMode === 'sandbox',
    },
    loopbackOrigin: loopbackOriginOf(host, String(port.data)),
  };
}
