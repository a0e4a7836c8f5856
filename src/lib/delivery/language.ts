/**
 * The languages of delivery messages: the daily update, alerts and the price bot's answers go in
 * English or Hindi, as each subscriber chose on /alerts (English until they choose). WhatsApp
 * templates are registered with Meta once per language code, so the code is also the template's.
 */
export type DeliveryLanguage = 'en' | 'hi';

export const DELIVERY_LANGUAGES: readonly DeliveryLanguage[] = ['en', 'hi'];

export const DEFAULT_DELIVERY_LANGUAGE: DeliveryLanguage = 'en';

/** How /alerts names each language (in its own words, as language pickers do). */
export const LANGUAGE_NAMES: Readonly<Record<DeliveryLanguage, string>> = { en: 'English', hi: 'हिन्दी (Hindi)' };

/** A stored or sent language, or English for records written before there was a choice. */
export const languageOf = (value: unknown): DeliveryLanguage => (value === 'hi' ? 'hi' : DEFAULT_DELIVERY_LANGUAGE);

/** Text with Devanagari letters in it is Hindi (the bot answers a stranger in the script it was asked in). */
export const writtenInHindi = (text: string): boolean => /[\u0900-\u097f]/.test(text);

/** The language of a bot answer: the subscriber's choice, else the script the question was written in. */
export const answerLanguage = (chosen: DeliveryLanguage | undefined, text: string | null): DeliveryLanguage => chosen ?? (text !== null && writtenInHindi(text) ? 'hi' : DEFAULT_DELIVERY_LANGUAGE);
