/**
 * The desk's producer list prices as endpoints (issue 20): one price from the form, or a CSV
 * file, with the same rules (src/lib/producerPrices.ts, `listPriceProblem`: a listed producer,
 * grade and place, a real effective date no later than today in India, a sane ₹/kg value) and
 * the same audit as the price imports: one transaction and one audit entry per write, all or
 * nothing. The revision a new list makes is computed from the previous list, never sent.
 */
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import {
  findListLine,
  listLineId,
  listPriceProblem,
  MAX_PRODUCER_IMPORT_BYTES,
  MAX_PRODUCER_IMPORT_ROWS,
  producerPriceRecord,
  readProducerCsv,
  type ListPriceInput,
  type ProducerPriceRecord,
} from '../../lib/producerPrices.ts';
import { json, jsonError, readJson, readTextUpTo } from '../http/responses.ts';
import type { Store } from '../store/index.ts';
import type { AuditActor } from '../store/audit.ts';
import { numeric } from './priceChanges.ts';
import { requireAdmin } from './guard.ts';
import { afterProducerPriceWrite } from '../delivery/priceWrites.ts';

const slug = (label: string) => z.string({ error: `${label} is required.` }).trim().min(1, `${label} is required.`).max(60, `${label} is too long.`);

export const ListPriceBody = z.object({
  producer: slug('The producer'),
  grade: slug('The grade'),
  location: slug('The place'),
  effective: z.string({ error: 'The effective date must be YYYY-MM-DD.' }).trim(),
  value: numeric('The list price'),
});

const recordsOf = (rows: readonly ListPriceInput[], actor: AuditActor, now: Date): ProducerPriceRecord[] =>
  rows.map((row) => producerPriceRecord(findListLine(listLineId(row.producer, row.grade, row.location))!, row.effective, row.value, { at: now, by: actor.uid }));

async function write(store: Store, records: readonly ProducerPriceRecord[], actor: AuditActor, now: Date, via: 'form' | 'import', dryRun: boolean) {
  const result = await store.adminWriteProducerPrices({ records, actor, now, via, dryRun });
  // A changed list may be a revision someone has an alert on (evaluated after the answer, never undoing the write).
  if (!dryRun && result.written.length > 0) void afterProducerPriceWrite();
  return result;
}

/** POST /api/admin/producer-prices `{producer, grade, location, effective, value}`: one list price (a new list, or a correction of one). */
export const setListPrice: EndpointHandler = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const input = await readJson(context.request, ListPriceBody);
  if (!input.ok) return input.response;
  const now = new Date();
  const problem = listPriceProblem(input.data, now);
  if (problem) return jsonError(400, 'invalid_input', `${problem.message.charAt(0).toUpperCase()}${problem.message.slice(1)}.`, problem.field);
  const store = await context.store();
  const result = await write(store, recordsOf([input.data], gate.actor, now), gate.actor, now, 'form', false);
  return json({ changed: result.written.length > 0, id: recordsOf([input.data], gate.actor, now)[0]!.id, auditId: result.entry?.id ?? null });
};

/**
 * POST /api/admin/producer-prices/import[?dryRun=1], `Content-Type: text/csv`: the file as the
 * body. 415 for another type, 413 above 1 MiB or MAX_PRODUCER_IMPORT_ROWS rows, 400 with
 * `errors: [{line, field, message}]` when any row is bad (nothing written), else the counts.
 */
export const importListPrices: EndpointHandler = async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  const type = (context.request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'text/csv') return jsonError(415, 'unsupported_media_type', 'Send the file as Content-Type: text/csv.');
  const body = await readTextUpTo(context.request, MAX_PRODUCER_IMPORT_BYTES, `The file is too large: at most ${MAX_PRODUCER_IMPORT_BYTES / 1024 / 1024} MiB. Split it into smaller files.`);
  if (!body.ok) return body.response;
  const now = new Date();
  const reading = readProducerCsv(body.text, now);
  if (!reading.ok) {
    if (reading.tooManyRows) return jsonError(413, 'too_large', `The file has too many rows: at most ${MAX_PRODUCER_IMPORT_ROWS}. Split it into smaller files.`);
    const first = reading.errors[0]!;
    return json({ error: { code: 'invalid_csv', message: `Line ${first.line}, ${first.field}: ${first.message}. Nothing was imported.`, field: first.field, line: first.line }, errors: reading.errors }, 400);
  }
  const dryRun = ['1', 'true'].includes(context.url.searchParams.get('dryRun') ?? '');
  const result = await write(await context.store(), recordsOf(reading.rows, gate.actor, now), gate.actor, now, 'import', dryRun);
  return json({ dryRun, rows: result.rows, changed: result.written.length, auditId: result.entry?.id ?? null });
};
