/**
 * The enquiry forms: what each asks (one list per kind, shown by the form island and turned
 * into that kind's zod schema here), and what happens to a valid enquiry: a mail to the
 * operator with the sender as Reply-To, and a confirmation from our fixed template to the sender.
 */
import { z } from 'astro/zod';
import type { EnquiryField, EnquiryFormSpec } from '../lib/enquiryForms.ts';
import { polymers } from '../lib/catalog.ts';
import { emailField, textField } from './mail/http.ts';
import type { OutgoingMail, SentMail } from './mail/mailer.ts';
import { renderMail } from './mail/templates.ts';

export const enquiryKinds = ['event-registration', 'press-release', 'whatsapp-chatbot', 'buy-sell', 'contact'] as const;
export type EnquiryKind = (typeof enquiryKinds)[number];
export const isEnquiryKind = (value: string | undefined): value is EnquiryKind => enquiryKinds.includes(value as EnquiryKind);

/** The form each service page shows. */
export const serviceEnquiry: Readonly<Record<string, EnquiryKind>> = {
  events: 'event-registration',
  'press-release': 'press-release',
  'whatsapp-chatbot': 'whatsapp-chatbot',
};

const name: EnquiryField = { name: 'name', label: 'Your name', type: 'text', required: true, maxLength: 100, autoComplete: 'name' };
const email: EnquiryField = { name: 'email', label: 'E-mail', type: 'email', required: true, maxLength: 254, autoComplete: 'email' };
const phone = (required: boolean, label = 'Phone'): EnquiryField => ({ name: 'phone', label, type: 'tel', required, maxLength: 20, autoComplete: 'tel', hint: 'With country code, e.g. +91 98200 12345' });
const company = (required: boolean): EnquiryField => ({ name: 'company', label: 'Company', type: 'text', required, maxLength: 120, autoComplete: 'organization' });
const city = (required: boolean): EnquiryField => ({ name: 'city', label: 'City', type: 'text', required, maxLength: 60, autoComplete: 'address-level2' });
const message = (required: boolean, label = 'Message', max = 3000): EnquiryField => ({ name: 'message', label, type: 'textarea', required, maxLength: max });

export const enquiryForms: Readonly<Record<EnquiryKind, EnquiryFormSpec>> = {
  'event-registration': {
    kind: 'event-registration',
    title: 'Register for an event',
    intro: 'Tell us which event interests you; our events team replies within two working days with dates and costs.',
    submitLabel: 'Register interest',
    fields: [
      name, email, phone(true), company(false), city(true),
      { name: 'event', label: 'Event', type: 'select', required: true, options: ['Price-outlook seminar', 'Buyer–seller meet', 'Trade-fair delegation', 'Company event'] },
      { name: 'seats', label: 'Seats', type: 'number', required: true, min: 1, max: 20, step: 1 },
      message(false, 'Anything we should know'),
    ],
  },
  'press-release': {
    kind: 'press-release',
    title: 'Request a press release',
    intro: 'Send us your announcement; our editors reply within one working day with a proposal.',
    submitLabel: 'Send request',
    fields: [
      name, email, phone(false), company(true),
      { name: 'headline', label: 'Headline', type: 'text', required: true, maxLength: 160 },
      { name: 'releaseDate', label: 'Preferred release date', type: 'date', required: false },
      message(true, 'Announcement (text or summary)', 5000),
    ],
  },
  'whatsapp-chatbot': {
    kind: 'whatsapp-chatbot',
    title: 'Sign up for the WhatsApp chatbot',
    intro: 'We activate the chatbot for your number and send the first price alert within one working day.',
    submitLabel: 'Sign up',
    fields: [
      name, email, phone(true, 'WhatsApp number'), company(false), city(false),
      { name: 'products', label: 'Polymers and feedstocks you follow', type: 'text', required: false, maxLength: 200 },
    ],
  },
  'buy-sell': {
    kind: 'buy-sell',
    title: 'Post a buy or sell enquiry',
    intro: 'Our trade desk checks every lead and matches it with buyers or sellers in our network.',
    submitLabel: 'Send enquiry',
    fields: [
      { name: 'side', label: 'I want to', type: 'select', required: true, options: ['Buy', 'Sell'] },
      { name: 'polymer', label: 'Polymer', type: 'select', required: true, options: [...polymers.map((p) => p.slug), 'Other'] },
      { name: 'grade', label: 'Grade', type: 'text', required: true, maxLength: 80, hint: 'e.g. Raffia, film, injection moulding' },
      { name: 'quantity', label: 'Quantity (tonnes)', type: 'number', required: true, min: 0.1, max: 100000, step: 0.1 },
      city(true), name, company(false), email, phone(true),
      message(false, 'Details (price idea, delivery, payment terms)'),
    ],
  },
  contact: {
    kind: 'contact',
    title: 'Write to us',
    intro: 'Our desk answers within one working day.',
    submitLabel: 'Send message',
    fields: [
      name, email, phone(false),
      {
        name: 'subject',
        label: 'Subject',
        type: 'select',
        required: true,
        options: ['Subscription', 'Cancel subscription', 'Price data', 'Editorial', 'Buy–sell', 'Press release', 'Events', 'Privacy request', 'Grievance', 'Other'],
      },
      message(true),
    ],
  },
};

/** A blank optional field is a missing field. */
const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

function fieldSchema(field: EnquiryField): z.ZodType {
  const label = field.label;
  let schema: z.ZodType;
  switch (field.type) {
    case 'email':
      schema = emailField(label);
      break;
    case 'tel':
      schema = z
        .string({ error: `${label} is required.` })
        .trim()
        .regex(/^\+?[0-9][0-9 ()-]{6,19}$/, `${label} is not a phone number.`);
      break;
    case 'select':
      schema = z.enum(field.options as [string, ...string[]], { error: `Choose a ${label.toLowerCase()} from the list.` });
      break;
    case 'number':
      schema = z.coerce
        .number({ error: `${label} must be a number.` })
        .refine(Number.isFinite, `${label} must be a number.`)
        .refine((n) => n >= (field.min ?? 0) && n <= (field.max ?? Number.MAX_SAFE_INTEGER), `${label} must be between ${field.min ?? 0} and ${field.max}.`);
      break;
    case 'date':
      schema = z.iso.date({ error: `${label} must be a date (YYYY-MM-DD).` });
      break;
    default:
      schema = textField(label, field.maxLength ?? 200);
  }
  return field.required ? z.preprocess(blankToUndefined, schema) : z.preprocess(blankToUndefined, schema.optional());
}

const HONEYPOT = 'website';

function schemaOf(form: EnquiryFormSpec): z.ZodObject<Record<string, z.ZodType>> {
  const shape: Record<string, z.ZodType> = { [HONEYPOT]: z.string().max(2000).optional() };
  for (const field of form.fields) shape[field.name] = fieldSchema(field);
  return z.object(shape);
}

/** One zod schema per form kind, from its field list (plus the honeypot). */
export const enquirySchemas: Readonly<Record<EnquiryKind, z.ZodObject<Record<string, z.ZodType>>>> = {
  'event-registration': schemaOf(enquiryForms['event-registration']),
  'press-release': schemaOf(enquiryForms['press-release']),
  'whatsapp-chatbot': schemaOf(enquiryForms['whatsapp-chatbot']),
  'buy-sell': schemaOf(enquiryForms['buy-sell']),
  contact: schemaOf(enquiryForms.contact),
};

export type EnquiryInput = Record<string, unknown>;

/** A filled honeypot: a bot. It is told "received" and nothing is sent. */
export const isBot = (input: EnquiryInput): boolean => typeof input[HONEYPOT] === 'string' && input[HONEYPOT].trim() !== '';

/** The label/value rows of an enquiry, in the form's order, without empty optional fields. */
export function enquiryRows(kind: EnquiryKind, input: EnquiryInput): [string, string][] {
  return enquiryForms[kind].fields.flatMap((field) => {
    const value = input[field.name];
    return value === undefined || value === '' ? [] : [[field.label, String(value)] as [string, string]];
  });
}

/** The two mails of an enquiry: to the operator (Reply-To the sender) and the sender's confirmation. */
export function enquiryMails(kind: EnquiryKind, input: EnquiryInput, operator: string): { operator: OutgoingMail; confirmation: OutgoingMail } {
  const form = enquiryForms[kind];
  const sender = String(input['email']);
  const who = String(input['name']);
  const rows = enquiryRows(kind, input);
  const headline = kind === 'buy-sell' ? `${String(input['side'])} ${String(input['polymer'])} ${String(input['grade'])}, ${String(input['quantity'])} t, ${String(input['city'])}` : who;
  const operatorMail = renderMail({
    subject: `[Enquiry: ${form.title}] ${headline}`,
    heading: `${form.title}: a new enquiry`,
    blocks: [{ rows }],
    footer: 'Sent through a PolyIndex website form. Reply to this e-mail to answer the sender.',
  });
  // The confirmation goes to an address a visitor typed, so it carries none of the visitor's
  // words: only our fixed text and the form's title. Nobody can use it to mail a stranger.
  const confirmation = renderMail({
    subject: `We received your enquiry: ${form.title}`,
    heading: 'Thank you for your enquiry',
    blocks: [
      { paragraph: `We have received your ${form.title.toLowerCase()} enquiry and our desk will reply within one working day.` },
      { paragraph: 'If you did not send this enquiry, you can ignore this e-mail: nothing else will follow.' },
    ],
    footer: 'You receive this e-mail because this address was entered in an enquiry form on the PolyIndex website.',
  });
  return {
    operator: { ...operatorMail, to: operator, replyTo: sender },
    confirmation: { ...confirmation, to: sender, replyTo: operator },
  };
}

/** Sends both mails. The operator's copy must go; a failed confirmation is logged, not fatal. */
export async function deliverEnquiry(
  kind: EnquiryKind,
  input: EnquiryInput,
  deps: { readonly operator: string; readonly send: (mail: OutgoingMail) => Promise<SentMail> },
): Promise<{ confirmed: boolean }> {
  const mails = enquiryMails(kind, input, deps.operator);
  await deps.send(mails.operator);
  try {
    await deps.send(mails.confirmation);
    return { confirmed: true };
  } catch (error) {
    console.error(`[mail] confirmation of a ${kind} enquiry failed`, error);
    return { confirmed: false };
  }
}
