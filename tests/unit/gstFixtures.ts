/** Parties of sample GST documents, shared by the invoice model and PDF tests. */
import { recipientOf, supplierOf, type Recipient, type Supplier } from '../../src/lib/gst/invoice.ts';

export function sampleParties(): { supplier: Supplier; inState: Recipient; otherState: Recipient; unregistered: Recipient } {
  const supplier = supplierOf({ legalName: 'PolyIndex Market Data Private Limited', address: '402 Trade Centre, BKC | Mumbai 400051', gstin: '27AABCP1234F1ZU', email: 'desk@polyindex.test', phone: '+91 22 4000 7000' });
  const inState = recipientOf({ legalName: 'Raj Polymers Private Limited', address: 'Plot 14, MIDC | Taloja', pin: '410208', stateCode: '27', gstin: '27AAACR5055K1Z7' });
  const otherState = recipientOf({ legalName: 'Tungabhadra Packaging LLP', address: '41 Industrial Suburb | Bengaluru', pin: '560022', stateCode: '29', gstin: '29AABCT1332L1ZA' });
  const unregistered = recipientOf({ legalName: 'Anita Deshpande', address: '17 Lake View Road, Kolkata', pin: '700029', stateCode: '19' });
  if (!supplier.ok || !inState.ok || !otherState.ok || !unregistered.ok) throw new Error('sample parties');
  return { supplier: supplier.value, inState: inState.value, otherState: otherState.value, unregistered: unregistered.value };
}
