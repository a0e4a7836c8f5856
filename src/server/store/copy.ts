/**
 * `npm run store:copy`, without the I/O of opening stores: copies every record of the chosen
 * kinds from one TransferStore to another, page by page (never a whole kind in memory), then
 * proves the copy by re-reading both sides: count and checksum per kind (./checksum.ts).
 */
import { checksumOf, type KindSummary } from './checksum.ts';
import { TRANSFER_KINDS, type TransferKind } from './kinds.ts';
import type { TransferStore } from './transfer.ts';

/** Only what a copy needs of a store: the transfer part. */
export type TransferSide = Pick<TransferStore, 'exportRecords' | 'importRecords'>;

export interface CopyOptions {
  readonly source: TransferSide;
  readonly target: TransferSide;
  /** In TRANSFER_KINDS order whatever the order given. */
  readonly kinds?: readonly TransferKind[] | undefined;
  /** Write into a target that already holds records of a kind (upserts by identity). */
  readonly merge?: boolean | undefined;
  /** Only count and checksum the source. */
  readonly dryRun?: boolean | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

export interface KindReport {
  readonly kind: TransferKind;
  readonly source: KindSummary;
  /** Absent in a dry run. */
  readonly target?: KindSummary | undefined;
  /** Records written by the copy. */
  readonly written?: number | undefined;
  /** Counts and checksums equal (always false without a target summary). */
  readonly match: boolean;
}

export type CopyResult =
  | { readonly outcome: 'dry-run'; readonly kinds: readonly KindReport[] }
  /** The target holds records of these kinds (at least `atLeast` each) and merge was not asked. */
  | { readonly outcome: 'refused'; readonly found: readonly { readonly kind: TransferKind; readonly atLeast: number }[] }
  | { readonly outcome: 'copied'; readonly kinds: readonly KindReport[]; readonly ok: boolean };

/** Count and checksum of one kind, read page by page. */
export async function summarizeKind(side: TransferSide, kind: TransferKind): Promise<KindSummary> {
  const accumulator = checksumOf(kind);
  for await (const page of side.exportRecords(kind)) accumulator.add(page);
  return accumulator.summary();
}

/** How many records the first page of a kind holds (0: the kind is empty). */
async function firstPageSize(side: TransferSide, kind: TransferKind): Promise<number> {
  for await (const page of side.exportRecords(kind)) if (page.length > 0) return page.length;
  return 0;
}

export const kindsInOrder = (kinds: readonly TransferKind[] = TRANSFER_KINDS): TransferKind[] => TRANSFER_KINDS.filter((kind) => kinds.includes(kind));

export async function copyStore(options: CopyOptions): Promise<CopyResult> {
  const kinds = kindsInOrder(options.kinds);
  const log = options.log ?? (() => undefined);

  if (options.dryRun) {
    const reports: KindReport[] = [];
    for (const kind of kinds) reports.push({ kind, source: await summarizeKind(options.source, kind), match: false });
    return { outcome: 'dry-run', kinds: reports };
  }

  if (!options.merge) {
    const found: { kind: TransferKind; atLeast: number }[] = [];
    for (const kind of kinds) {
      const atLeast = await firstPageSize(options.target, kind);
      if (atLeast > 0) found.push({ kind, atLeast });
    }
    if (found.length > 0) return { outcome: 'refused', found };
  }

  const written = new Map<TransferKind, number>();
  for (const kind of kinds) {
    let count = 0;
    for await (const page of options.source.exportRecords(kind)) {
      count += await options.target.importRecords(kind, page);
    }
    written.set(kind, count);
    log(`copied ${kind}: ${count}`);
  }

  const reports = await verifyKinds(options.source, options.target, kinds);
  return {
    outcome: 'copied',
    kinds: reports.map((report) => ({ ...report, written: written.get(report.kind) })),
    ok: reports.every((report) => report.match),
  };
}

/** Re-reads both sides: count and checksum of each kind, and whether they agree. */
export async function verifyKinds(source: TransferSide, target: TransferSide, kinds: readonly TransferKind[] = TRANSFER_KINDS): Promise<KindReport[]> {
  const reports: KindReport[] = [];
  for (const kind of kindsInOrder(kinds)) {
    const [from, to] = await Promise.all([summarizeKind(source, kind), summarizeKind(target, kind)]);
    reports.push({ kind, source: from, target: to, match: from.count === to.count && from.checksum === to.checksum });
  }
  return reports;
}

/** The proof as a text table: kind, counts, the source's checksum and whether the target's matches. */
export function reportTable(reports: readonly KindReport[]): string {
  const rows = [
    ['kind', 'source', 'target', 'source sha256', 'match'],
    ...reports.map((r) => [
      r.kind,
      String(r.source.count),
      r.target ? String(r.target.count) : '-',
      r.source.checksum,
      r.target ? (r.match ? 'yes' : r.target.checksum === r.source.checksum ? 'count differs' : 'NO') : '-',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}
