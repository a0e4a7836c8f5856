/**
 * The supplier of every GST invoice, from configuration: INVOICE_LEGAL_NAME and INVOICE_ADDRESS,
 * the GSTIN of the contact bar (CONTACT_GSTIN, whose first two digits give the supplier's state)
 * and its e-mail and phone. A setting that makes no valid supplier (a GSTIN failing its check
 * character, an empty name) throws with the reason, so no invoice is issued from it.
 */
import { config } from '../config/index.ts';
import { supplierOf, type Supplier } from '../../lib/gst/invoice.ts';

export function configuredSupplier(): Supplier {
  const checked = supplierOf({ ...config.invoice, gstin: config.contact.gstin, email: config.contact.email, phone: config.contact.phone });
  if (!checked.ok) throw new Error(`The invoice supplier settings are not valid (${checked.field}): ${checked.message}`);
  return checked.value;
}
