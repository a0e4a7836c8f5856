/**
 * The supplier of every GST invoice, from configuration: INVOICE_LEGAL_NAME and INVOICE_ADDRESS,
 * the GSTIN of the contact bar (CONTACT_GSTIN, whose first two digits give the supplier's state)
 * and its e-mail and phone. A setting that makes no valid supplier (a GSTIN failing its check
 * character, an empty name) throws with the reason, so no invoice is issued from it.
 */
import { CONTACT_EMAIL, CONTACT_GSTIN, CONTACT_PHONE, INVOICE_ADDRESS, INVOICE_LEGAL_NAME } from 'astro:env/server';
import { supplierOf, type Supplier } from '../../lib/gst/invoice.ts';

export function configuredSupplier(): Supplier {
  const checked = supplierOf({ legalName: INVOICE_LEGAL_NAME, address: INVOICE_ADDRESS, gstin: CONTACT_GSTIN, email: CONTACT_EMAIL, phone: CONTACT_PHONE });
  if (!checked.ok) throw new Error(`The invoice supplier settings are not valid (${checked.field}): ${checked.message}`);
  return checked.value;
}
