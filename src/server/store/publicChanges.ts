/**
 * Changes that public pages show: the marker every instance's page cache (src/server/pageCache)
 * reads to drop the pages it keeps. A write a cached page shows (a post created, edited,
 * unpublished or deleted, posts seeded, the banner list changed) tells this process's listeners
 * at once and then records a new token in the store, which the other instances read at most every
 * few seconds. No I/O here: the part's interface and its record.
 */

/** The one record of the kind: a new token after every change public pages show. */
export interface PublicChangeRecord {
  /** Always PUBLIC_CHANGE_ID. */
  readonly id: string;
  /** Random: a different token is a change (no counter to read and increment across instances). */
  readonly token: string;
  /** When the change was recorded (ISO). */
  readonly at: string;
}

export const PUBLIC_CHANGE_ID = 'public-pages';

export interface PublicChangeStore {
  /** The latest change's token; null when none was ever recorded. */
  publicChangeToken(): Promise<string | null>;
  /** Records a change public pages show (after this process's listeners were told). */
  markPublicChange(now: Date): Promise<void>;
  /** Called at once, in this process, after each write public pages show; returns the unsubscribe. */
  onPublicChange(listener: () => void): () => void;
}
