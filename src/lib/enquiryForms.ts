/**
 * What an enquiry form is made of, shared by the server (which builds each kind's field list
 * and its zod schema from it) and the form island (which renders it).
 */

/** One input of an enquiry form, as the server describes it (the server validates the same list). */
export interface EnquiryField {
  readonly name: string;
  readonly label: string;
  readonly type: 'text' | 'email' | 'tel' | 'textarea' | 'select' | 'number' | 'date';
  readonly required: boolean;
  readonly maxLength?: number;
  readonly options?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly autoComplete?: string;
  readonly hint?: string;
}

export interface EnquiryFormSpec {
  readonly kind: string;
  readonly title: string;
  readonly intro: string;
  readonly submitLabel: string;
  readonly fields: readonly EnquiryField[];
}

/** The hidden field bots fill in and people never see. */
export const HONEYPOT_FIELD = 'website';
