/**
 * The WhatsApp channel: the Business Cloud API (`POST {graph}/{phone-number-id}/messages`, a
 * bearer token) and its embedded-default stand-in, an outbox of JSON files under
 * `DATA_DIR/whatsapp-outbox/` holding exactly the request the Cloud API would have received.
 * Business-initiated messages are approved templates; free text is only for replies inside the
 * 24-hour service window (dispatch.ts decides which). No astro:env here: built from options.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { graphRefusal, renderTemplate, templateParam, TEXT_BODY_MAX, type WhatsAppTemplate } from '../../lib/delivery/whatsappTemplates.ts';

export type WhatsAppMessage =
  | { readonly kind: 'text'; readonly to: string; readonly body: string }
  | { readonly kind: 'template'; readonly to: string; readonly template: WhatsAppTemplate; readonly params: readonly string[] };

export interface WhatsAppSender {
  readonly mode: 'cloud' | 'sandbox';
  /** Sends one message; resolves with the message id (`wamid.…`). */
  send(message: WhatsAppMessage): Promise<{ readonly id: string }>;
}

/** A refusal by the Cloud API, with its Graph error code (131047: outside the 24-hour window). */
export class WhatsAppError extends Error {
  readonly status: number;
  readonly code: number | null;
  // No parameter properties: the module stays erasable TypeScript (Node runs it in scripts and tests).
  constructor(message: string, status: number, code: number | null) {
    super(message);
    this.name = 'WhatsAppError';
    this.status = status;
    this.code = code;
  }
}

/** Free text is at most 4096 characters in the Cloud API. */
export const MAX_TEXT = TEXT_BODY_MAX;

/** The Cloud API request body of a message. */
export function graphRequestOf(message: WhatsAppMessage): Record<string, unknown> {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.to };
  if (message.kind === 'text') return { ...base, type: 'text', text: { preview_url: false, body: message.body.slice(0, MAX_TEXT) } };
  const template = message.template;
  const parameters = message.params.map((text) => ({ type: 'text', text: templateParam(text) }));
  const components: Record<string, unknown>[] = [{ type: 'body', parameters }];
  // Authentication templates carry the code again on their copy-code button.
  if (template.category === 'AUTHENTICATION') components.push({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: templateParam(message.params[0] ?? '') }] });
  return { ...base, type: 'template', template: { name: template.name, language: { code: template.language }, components } };
}

/** What the phone shows for a message (the sandbox's view; also logs). */
export function textOf(message: WhatsAppMessage): string {
  return message.kind === 'text' ? message.body.slice(0, MAX_TEXT) : renderTemplate(message.template, message.params.map(templateParam));
}

export interface CloudApiOptions {
  readonly token: string;
  readonly phoneNumberId: string;
  /** `https://graph.facebook.com/v21.0`; tests point it at a fake Graph server on loopback. */
  readonly baseUrl: string;
  readonly timeoutMs?: number;
}

const GRAPH_ANSWER = (body: unknown): string | null => {
  const id = (body as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
  return typeof id === 'string' && id ? id : null;
};

export function createCloudApiSender({ token, phoneNumberId, baseUrl, timeoutMs = 15_000 }: CloudApiOptions): WhatsAppSender {
  if (!token || !phoneNumberId) throw new Error('the WhatsApp Cloud API needs WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID');
  const url = `${baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(phoneNumberId)}/messages`;
  return {
    mode: 'cloud',
    async send(message) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(graphRequestOf(message)),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        const error = (body as { error?: { message?: unknown; code?: unknown } } | null)?.error;
        throw new WhatsAppError(
          `WhatsApp Cloud API ${response.status}: ${typeof error?.message === 'string' ? error.message : 'no error message'}`,
          response.status,
          typeof error?.code === 'number' ? error.code : null,
        );
      }
      const id = GRAPH_ANSWER(body);
      if (!id) throw new WhatsAppError('WhatsApp Cloud API answered without a message id', response.status, null);
      return { id };
    },
  };
}

// ---- the outbox (embedded default) -------------------------------------------------------

/** One outbox file: the Cloud API request as it would have been sent, and what the phone shows. */
export interface OutboxWhatsApp {
  readonly id: string;
  /** ISO instant. */
  readonly at: string;
  readonly to: string;
  readonly request: Record<string, unknown>;
  readonly text: string;
  /** `text` or the template's name. */
  readonly type: string;
}

const OUTBOX_FILE = /^[0-9TZ-]+-wamid\.sandbox\.[0-9a-f-]{36}\.json$/;

export function createOutboxSender(dir: string, now: () => Date = () => new Date()): WhatsAppSender {
  return {
    mode: 'sandbox',
    async send(message) {
      const request = graphRequestOf(message);
      // What Meta would refuse is refused here too, with its code: the sandbox shows only what would have gone.
      const refusal = graphRefusal(request);
      if (refusal) throw new WhatsAppError(`WhatsApp Cloud API 400 (sandbox): ${refusal.message}`, 400, refusal.code);
      const id = `wamid.sandbox.${randomUUID()}`;
      const at = now().toISOString();
      const entry: OutboxWhatsApp = {
        id,
        at,
        to: message.to,
        request,
        text: textOf(message),
        type: message.kind === 'text' ? 'text' : message.template.name,
      };
      await mkdir(dir, { recursive: true });
      const name = `${at.replace(/[:.]/g, '-')}-${id}.json`;
      // Whole files only: written under a temporary name, then renamed.
      const temporary = join(dir, `.${name}.tmp`);
      await writeFile(temporary, `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, join(dir, name));
      return { id };
    },
  };
}

/** Every message of the outbox, oldest first (optionally only those to one number). */
export async function readWhatsAppOutbox(dir: string, to?: string): Promise<OutboxWhatsApp[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const entries: OutboxWhatsApp[] = [];
  for (const name of names.filter((n) => OUTBOX_FILE.test(n)).toSorted()) {
    try {
      const entry = JSON.parse(await readFile(join(dir, name), 'utf8')) as OutboxWhatsApp;
      if (!to || entry.to === to) entries.push(entry);
    } catch {
      // A file removed meanwhile is simply not listed.
    }
  }
  return entries;
}
