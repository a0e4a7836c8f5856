/**
 * The account's own endpoints: the PDF of one of the signed-in buyer's GST documents (a tax
 * invoice or a credit note), drawn from the stored record. Only its owner gets it (and an
 * administrator, who answers the buyer's questions); anyone else is told there is no such
 * document, so numbers cannot be probed for other buyers' names.
 */
import { endpoint } from '../edge/endpoint.ts';
import { jsonError, unauthenticated } from '../http/responses.ts';
import { pdfOf } from '../invoices/issue.ts';
import { pdfFileName } from '../invoices/pdf.ts';
import { paymentsRuntime } from '../payments/index.ts';

/** "PI-26-27-00001" or "CN-26-27-00001", optionally with ".pdf". */
const DOCUMENT_ID = /^(PI|CN)-\d{2}-\d{2}-\d{5,7}$/;

/** GET /api/account/documents/{id}: the PDF, as an attachment named by its number. */
export const documentPdf = endpoint('signedIn', async ({ params, locals }) => {
  const session = locals.session;
  if (!session) return unauthenticated();
  const id = (params['id'] ?? '').replace(/\.pdf$/i, '');
  if (!DOCUMENT_ID.test(id)) return jsonError(404, 'not_found', 'There is no such document.', 'id');
  // The store the payments issue documents on (the process's store; tests install another).
  const db = (await paymentsRuntime()).store;
  const record = id.startsWith('PI') ? await db.findInvoice(id) : await db.findCreditNote(id);
  const mayRead = record !== null && (record.uid === session.uid || session.record?.role === 'admin');
  if (!record || !mayRead) return jsonError(404, 'not_found', 'There is no such document.', 'id');
  const pdf = await pdfOf(record);
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${pdfFileName(record.document)}"`,
      'Content-Length': String(pdf.length),
      'Cache-Control': 'private, no-store',
    },
  });
});
