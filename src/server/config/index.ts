/**
 * The server's configuration, read once per process: the only server module that reads settings.
 * Through astro:env: `getSecret` reads the environment when the server starts (and a `.env` file
 * under `astro dev`); the contact details are the values inlined at build time. What each setting
 * is, its default and its check: ./settings.ts.
 */
import { CONTACT_EMAIL, CONTACT_GSTIN, CONTACT_PHONE, getSecret } from 'astro:env/server';
import { readConfig, type Config, type SettingName } from './settings.ts';

export type { Config } from './settings.ts';

const INLINED: Partial<Record<SettingName, string>> = { CONTACT_PHONE, CONTACT_GSTIN, CONTACT_EMAIL };

export const config: Config = readConfig((name) => INLINED[name] ?? getSecret(name));
