/**
 * The WhatsApp message templates that carry business-initiated messages (the daily update,
 * alerts, verification codes), as registered with Meta in WhatsApp Manager: one per name and
 * language code, English (`en`) and Hindi (`hi`). And the Cloud API's rules for a message,
 * checked here before anything is sent: the sandbox outbox refuses what Meta would refuse, with
 * Meta's error code (docs/delivery.md, "Templates and their limits").
 *
 * Meta's rules we write to (Cloud API, 2025–2026):
 * - a template body is at most 1,024 characters, and so is the body once its parameters are
 *   filled in (error 132005 otherwise); a free-text message at most 4,096;
 * - a parameter may not hold a line break or a tab, nor more than four spaces in a row (132018),
 *   and may not be empty; the number of parameters is the template's (132000);
 * - a body neither begins nor ends with a parameter, and every parameter has a sample at
 *   registration (we register them with the samples of `templateDefinitions`).
 *
 * The daily update is a list of lines, and parameters cannot hold line breaks, so its template
 * has one parameter per line: `polyindex_daily_update_{n}` for n = 1…MAX_DAILY_LINES lines, the
 * line breaks in the approved body. A run picks the template of its line count. The weekly
 * forecast digest is made the same way: `polyindex_forecast_digest_{n}`, n = 1…MAX_DIGEST_LINES.
 */
import type { DeliveryLanguage } from './language.ts';
import { DELIVERY_LANGUAGES } from './language.ts';

export interface WhatsAppTemplate {
  /** The template's name in WhatsApp Manager. */
  readonly name: string;
  /** Its language code there (each translation is registered under the same name). */
  readonly language: DeliveryLanguage;
  readonly category: 'UTILITY' | 'AUTHENTICATION';
  /** The approved body, `{{n}}` for the n-th parameter. */
  readonly body: string;
  /** A sample for each parameter (Meta asks for them at registration). */
  readonly samples: readonly string[];
}

/** Meta's limit on a template body, filled in. */
export const TEMPLATE_BODY_MAX = 1024;
/** Meta's limit on a free-text message. */
export const TEXT_BODY_MAX = 4096;
/** The most lines a daily-update template carries (the rest: one "+N more" line and the link). */
export const MAX_DAILY_LINES = 14;

const DAILY_WORDS: Readonly<Record<DeliveryLanguage, { readonly title: string; readonly more: string; readonly stop: string }>> = {
  en: { title: 'PolyIndex prices', more: 'More', stop: 'Reply STOP to end these updates.' },
  hi: { title: 'PolyIndex भाव', more: 'और भाव', stop: 'ये अपडेट बंद करने के लिए STOP भेजें।' },
};

const DAILY_SAMPLES: Readonly<Record<DeliveryLanguage, readonly string[]>> = {
  en: ['🛢 *Feedstocks* · 23 Nov', '*Brent crude* $73.40/bbl ▲0.55 (0.76%)', '*Naphtha Japan* $612/MT ▼2.5 (0.41%)', '🇮🇳 *Indian market* · 20 Nov', '*PP Raffia Mumbai* ₹104.50/kg ▲0.50 (0.48%)'],
  hi: ['🛢 *फ़ीडस्टॉक* · 23 नवंबर', '*ब्रेंट क्रूड* $73.40/बैरल ▲0.55 (0.76%)', '*नेफ़्था जापान* $612/टन ▼2.5 (0.41%)', '🇮🇳 *भारतीय बाज़ार* · 20 नवंबर', '*PP रैफ़िया मुंबई* ₹104.50/किलो ▲0.50 (0.48%)'],
};

/**
 * A template of `lines` lines, one parameter each, under a title with the day ({{1}}) and above a
 * link ({{lines + 2}}) and the STOP line: the daily update and the weekly forecast digest.
 */
function linedTemplate(name: string, language: DeliveryLanguage, lines: number, words: { readonly title: string; readonly more: string; readonly stop: string }, samples: readonly string[], sampleLink: string): WhatsAppTemplate {
  const slots = Array.from({ length: lines }, (_, i) => `{{${i + 2}}}`).join('\n');
  const sampleDay = language === 'hi' ? 'मंगलवार, 24 नवंबर 2026' : 'Tue 24 Nov 2026';
  return {
    name: `${name}_${lines}`,
    language,
    category: 'UTILITY',
    body: `*${words.title} · {{1}}*\n\n${slots}\n\n${words.more}: {{${lines + 2}}}\n${words.stop}`,
    samples: [sampleDay, ...Array.from({ length: lines }, (_, i) => samples[i % samples.length]!), sampleLink],
  };
}

/** The daily update's template with `lines` price lines. */
const dailyTemplate = (language: DeliveryLanguage, lines: number): WhatsAppTemplate =>
  linedTemplate('polyindex_daily_update', language, lines, DAILY_WORDS[language], DAILY_SAMPLES[language], 'https://polyindex.in/indian-bazaar/citywise?city=mumbai');

/** The most lines a weekly forecast digest template carries: two products in full (1,024 characters hold no more); the rest "+N more products". */
export const MAX_DIGEST_LINES = 12;

const DIGEST_WORDS: Readonly<Record<DeliveryLanguage, { readonly title: string; readonly more: string; readonly stop: string }>> = {
  en: { title: 'PolyIndex forecasts', more: 'More', stop: 'Reply STOP to end these updates.' },
  hi: { title: 'PolyIndex अनुमान', more: 'और देखें', stop: 'ये अपडेट बंद करने के लिए STOP भेजें।' },
};

const DIGEST_SAMPLES: Readonly<Record<DeliveryLanguage, readonly string[]>> = {
  en: ['📈 *PP Raffia · Mumbai · ₹/kg*', '1 week, to 7 Dec: ▲ Up 104.00–107.00 · baseline ▶ Flat 102.10–106.30', 'Scored: 1 week, to 23 Nov · came 105.50 · desk ▲ Up 104.00–107.00: ✓ in range, ✓ direction', '12 months (48 calls), in range · direction right: desk 61% · 56%, baseline 75% · 26%'],
  hi: ['📈 *PP Raffia · Mumbai · ₹/kg*', '1 हफ्ता, 7 दिसंबर तक: ▲ ऊपर 104.00–107.00 · आधार ▶ स्थिर 102.10–106.30', 'स्कोर: 1 हफ्ता, 23 नवंबर तक · भाव रहा 105.50 · डेस्क ▲ ऊपर 104.00–107.00: ✓ रेंज में, ✓ दिशा सही', '12 महीने (48 अनुमान), रेंज में · दिशा सही: डेस्क 61% · 56%, आधार 75% · 26%'],
};

const digestTemplate = (language: DeliveryLanguage, lines: number): WhatsAppTemplate =>
  linedTemplate('polyindex_forecast_digest', language, lines, DIGEST_WORDS[language], DIGEST_SAMPLES[language], 'https://polyindex.in/future-trend/PP');

const ALERT_BODIES: Readonly<Record<DeliveryLanguage, string>> = {
  en: '*Price alert*: {{1}}\nNow: {{2}}\nSee {{3}}\nReply STOP to end alerts.',
  hi: '*भाव अलर्ट*: {{1}}\nअभी: {{2}}\nदेखें {{3}}\nअलर्ट बंद करने के लिए STOP भेजें।',
};

const CODE_BODIES: Readonly<Record<DeliveryLanguage, string>> = {
  en: '{{1}} is your PolyIndex verification code. It expires in 10 minutes.',
  hi: '{{1}} आपका PolyIndex सत्यापन कोड है। यह 10 मिनट में समाप्त हो जाएगा।',
};

export const priceAlertTemplate = (language: DeliveryLanguage): WhatsAppTemplate => ({
  name: 'polyindex_price_alert',
  language,
  category: 'UTILITY',
  body: ALERT_BODIES[language],
  samples:
    language === 'hi'
      ? ['PP रैफ़िया मुंबई ₹110.00/किलो पर या उससे ऊपर पहुँचा', '₹110.50/किलो ▲1.50 (1.38%) · 24 नवंबर', 'https://polyindex.in/indian-bazaar/citywise?city=mumbai']
      : ['PP Raffia Mumbai reaches or passes ₹110.00/kg', '₹110.50/kg ▲1.50 (1.38%) · 24 Nov', 'https://polyindex.in/indian-bazaar/citywise?city=mumbai'],
});

export const verificationCodeTemplate = (language: DeliveryLanguage): WhatsAppTemplate => ({
  name: 'polyindex_verification_code',
  language,
  category: 'AUTHENTICATION',
  body: CODE_BODIES[language],
  samples: ['123456'],
});

export const dailyUpdateTemplate = (language: DeliveryLanguage, lines: number): WhatsAppTemplate => {
  if (!Number.isInteger(lines) || lines < 1 || lines > MAX_DAILY_LINES) throw new RangeError(`a daily-update template has 1 to ${MAX_DAILY_LINES} lines, not ${lines}`);
  return dailyTemplate(language, lines);
};

export const forecastDigestTemplate = (language: DeliveryLanguage, lines: number): WhatsAppTemplate => {
  if (!Number.isInteger(lines) || lines < 1 || lines > MAX_DIGEST_LINES) throw new RangeError(`a forecast-digest template has 1 to ${MAX_DIGEST_LINES} lines, not ${lines}`);
  return digestTemplate(language, lines);
};

/** Every template to register with Meta: each name in each language. */
export const REGISTERED_TEMPLATES: readonly WhatsAppTemplate[] = DELIVERY_LANGUAGES.flatMap((language) => [
  ...Array.from({ length: MAX_DAILY_LINES }, (_, i) => dailyTemplate(language, i + 1)),
  ...Array.from({ length: MAX_DIGEST_LINES }, (_, i) => digestTemplate(language, i + 1)),
  priceAlertTemplate(language),
  verificationCodeTemplate(language),
]);

const registered = new Map(REGISTERED_TEMPLATES.map((t) => [`${t.name}/${t.language}`, t]));
export const findRegisteredTemplate = (name: string, language: string): WhatsAppTemplate | undefined => registered.get(`${name}/${language}`);

/** How many parameters a body has ({{1}} … {{n}}). */
export const parameterCount = (body: string): number => new Set([...body.matchAll(/\{\{(\d+)\}\}/g)].map((m) => m[1])).size;

/**
 * A template parameter as Meta accepts it: control characters (line breaks, tabs) become a
 * space, runs of four or more spaces three, trimmed. Messages are built so this changes nothing;
 * it is the last guard before the wire.
 */
export const templateParam = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/ {4,}/g, '   ').trim();

/** The body a template renders to with these parameters (what the phone shows). */
export const renderTemplate = (template: Pick<WhatsAppTemplate, 'body'>, params: readonly string[]): string =>
  template.body.replace(/\{\{(\d+)\}\}/g, (_, n: string) => params[Number(n) - 1] ?? '');

/** Meta's refusal of a message (its Graph error code and words), or null when Meta would take it. */
export interface GraphRefusal {
  readonly code: number;
  readonly message: string;
}

/** Why a parameter would be refused (132018), or null. */
export function parameterProblem(text: string): string | null {
  if (text.length === 0) return 'a parameter is empty';
  if (/[\n\r\t]/.test(text)) return 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces';
  if (/ {5,}/.test(text)) return 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces';
  return null;
}

/**
 * What the Cloud API would answer to this request body of ours (`POST /{phone-number-id}/messages`):
 * null when it would send it, else the error Meta gives. Free text: at most 4,096 characters.
 * A template: registered under that name and language, the right number of body parameters,
 * each one line, the filled-in body at most 1,024 characters.
 */
export function graphRefusal(request: Readonly<Record<string, unknown>>): GraphRefusal | null {
  if (request['type'] === 'text') {
    const body = (request['text'] as { body?: unknown } | undefined)?.body;
    if (typeof body !== 'string' || body.length === 0) return { code: 100, message: 'Invalid parameter: text.body is required' };
    return body.length > TEXT_BODY_MAX ? { code: 100, message: `Invalid parameter: text.body is longer than ${TEXT_BODY_MAX} characters` } : null;
  }
  if (request['type'] !== 'template') return { code: 100, message: 'Invalid parameter: type' };
  const template = request['template'] as { name?: unknown; language?: { code?: unknown }; components?: unknown } | undefined;
  const known = findRegisteredTemplate(String(template?.name), String(template?.language?.code));
  if (!known) return { code: 132001, message: `Template name does not exist in the translation: ${String(template?.name)} (${String(template?.language?.code)})` };
  const components = Array.isArray(template?.components) ? (template.components as { type?: unknown; parameters?: unknown }[]) : [];
  const body = components.find((c) => c.type === 'body');
  const params = Array.isArray(body?.parameters) ? (body.parameters as { type?: unknown; text?: unknown }[]) : [];
  if (params.length !== parameterCount(known.body)) return { code: 132000, message: `Number of parameters does not match the expected number of params (${params.length} for ${parameterCount(known.body)})` };
  const texts: string[] = [];
  for (const param of params) {
    if (param.type !== 'text' || typeof param.text !== 'string') return { code: 132012, message: 'Parameter format does not match format in the created template' };
    const problem = parameterProblem(param.text);
    if (problem) return { code: 132018, message: problem };
    texts.push(param.text);
  }
  const rendered = renderTemplate(known, texts);
  if (rendered.length > TEMPLATE_BODY_MAX) return { code: 132005, message: `Translated text too long: the filled-in body is ${rendered.length} characters (at most ${TEMPLATE_BODY_MAX})` };
  return null;
}

/**
 * The registration of every template (WhatsApp Manager, or `POST /{waba-id}/message_templates`):
 * name, language, category and the body component with its samples.
 */
export const templateDefinitions = () =>
  REGISTERED_TEMPLATES.map((t) => ({
    name: t.name,
    language: t.language,
    category: t.category,
    components: [{ type: 'BODY', text: t.body, example: { body_text: [t.samples] } }],
  }));
