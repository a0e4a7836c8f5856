/** The profile a new account completes on /details: validated here, merged into the user record. */
import { z } from 'astro/zod';
import { isValidGstin } from '../lib/gstin.ts';

export const BUSINESS_TYPES = ['buyer', 'trader', 'processor', 'other'] as const;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(2, `${label} is required.`)
    .max(max, `${label} is too long.`);

export const ProfileInput = z.object({
  displayName: text('Name', 80),
  phone: z
    .string({ error: 'Phone is required.' })
    .trim()
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\+?[1-9]\d{9,14}$/, 'Phone must be 10–15 digits, e.g. +91 98765 43210.')),
  company: text('Company', 120),
  city: text('City', 60),
  businessType: z.enum(BUSINESS_TYPES, { error: 'Choose buyer, trader, processor or other.' }),
  gstin: z
    .string()
    .trim()
    .toUpperCase()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || isValidGstin(v), 'That GSTIN is not valid (15 characters, check digit included).'),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

/** Form fields → validated profile, or the first problem with its field name. */
export function parseProfileForm(form: FormData): { ok: true; profile: ProfileInput } | { ok: false; field: string; message: string } {
  const raw = Object.fromEntries(['displayName', 'phone', 'company', 'city', 'businessType', 'gstin'].map((k) => [k, form.get(k) ?? undefined]));
  const result = ProfileInput.safeParse(raw);
  if (result.success) return { ok: true, profile: result.data };
  const issue = result.error.issues[0];
  return { ok: false, field: String(issue?.path[0] ?? ''), message: issue?.message ?? 'Please check the form.' };
}
