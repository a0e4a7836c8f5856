/**
 * The machine-facing paths of price delivery, once: the access policy, the cross-site check,
 * the links in mail and the job routes all read them here.
 */

/** RFC 8058 one-click unsubscribe: a mail client POSTs `List-Unsubscribe=One-Click` here. */
export const ONE_CLICK_UNSUBSCRIBE_PATH = '/api/unsubscribe';
/** Where the unsubscribe link in a mail's body leads (it asks before it unsubscribes). */
export const UNSUBSCRIBE_PAGE_PATH = '/unsubscribe';

/**
 * The job endpoints an external scheduler calls with `Authorization: Bearer $JOBS_SECRET`
 * (src/server/jobs/endpoint.ts). Exactly these are public in the policy (their bearer check is
 * their authority); any other path under /api/jobs is an ordinary data path.
 */
export const JOB_PATHS = {
  /** The hourly delivery job: the daily update, alert retries, the sent-log's pruning. */
  dailyUpdate: '/api/jobs/daily-update',
} as const;

const jobPaths: ReadonlySet<string> = new Set(Object.values(JOB_PATHS));
export const isJobPath = (path: string): boolean => jobPaths.has(path);
