/**
 * The access policy (docs/architecture.md, "Who sees what") as one pure function of (path, session, now). The middleware
 * and every data endpoint ask it; a client-side check is only cosmetic.
 */
import { newsTypeSectionPath, resolveNewsType } from '../catalog.ts';
import { isoDateOf } from '../dates.ts';
import { isJobPath, ONE_CLICK_UNSUBSCRIBE_PATH, UNSUBSCRIBE_PAGE_PATH } from '../delivery/paths.ts';
import { findPlan, LIMITED_SCREEN_PATHS, planAccess, plans, screenOfPath, trialPlan, type Plan } from '../plans.ts';
import { isAppShellPath } from '../pwa/appShell.ts';
import { colleagueSeatsOf } from '../seats.ts';
import { isInTrial } from '../trial.ts';
import { historyLimitMessage, historyOverreach, reachOf, type HistoryReach } from './history.ts';
import { isPublicPath, normalizePath } from './publicPaths.ts';

/** What the policy needs to know of a signed-in visitor (from the verified cookie and the user record). */
export interface SessionFacts {
  readonly uid: string;
  /** null when the user record does not exist (yet). */
  readonly record: {
    readonly role?: string | null | undefined;
    readonly subscribed?: boolean | null | undefined;
    readonly plan?: string | null | undefined;
    readonly createdAt?: string | null | undefined;
    /** ISO instant; a subscription counts only before it. Missing = no expiry recorded. */
    readonly expiresAt?: string | null | undefined;
  } | null;
  /**
   * A team seat this visitor holds on another account's plan (src/lib/seats.ts), read from the
   * store at every request; absent or null when they hold none.
   */
  readonly seat?: SeatFacts | null | undefined;
}

/** A held seat: whose plan it is, and that owner's plan as their record says now. */
export interface SeatFacts {
  readonly ownerUid: string;
  readonly ownerEmail: string | null;
  /** The owner's record; null when it is gone (the seat then gives nothing). */
  readonly owner: {
    readonly subscribed?: boolean | null | undefined;
    readonly plan?: string | null | undefined;
    readonly expiresAt?: string | null | undefined;
  } | null;
}

/** The plan a visitor uses now and whose it is: their own, or the owner's of the seat they hold. */
export interface PlanInUse {
  readonly plan: string | null | undefined;
  readonly expiresAt: string | null | undefined;
  readonly via: 'own' | 'seat';
}

/** What a visitor may see, from nothing to everything. */
export type Entitlement = 'anonymous' | 'none' | 'limited' | 'full' | 'admin';

/**
 * What a path asks of its visitor. `editor`: the newsroom's tools (posts, banners), for the
 * `editor` and `admin` roles whatever their plan. `feed`: the data feed (`/api/v1/**`), for a
 * current plan that includes it (the plan table's `dataFeed`) and administrators; a key asks
 * exactly this of its owner at every request.
 */
export type Requirement = 'public' | 'signedIn' | 'limited' | 'full' | 'editor' | 'admin' | 'feed';

export type Decision =
  | { readonly kind: 'allow' }
  | { readonly kind: 'redirect'; readonly to: string }
  | {
      readonly kind: 'deny';
      readonly status: 401 | 403;
      readonly code: 'unauthenticated' | 'forbidden' | 'history_limit';
      readonly message: string;
      /** The query parameter refused (history_limit). */
      readonly field?: string;
    };

/** The limited set: the screens plans without data screens open (the plan table's SCREENS). */
const LIMITED_SECTIONS = LIMITED_SCREEN_PATHS;
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

// The last expiry read: a request asks the policy about one record several times (the gate, the
// history reach, the endpoint's own check), and reading the ISO text was the policy's largest cost.
let lastExpiry: { readonly text: string; readonly ms: number } | null = null;
const expiryMsOf = (text: string): number => (lastExpiry?.text === text ? lastExpiry : (lastExpiry = { text, ms: Date.parse(text) })).ms;

/** True when the record's subscription is current at `now`. */
export function hasActiveSubscription(record: SessionFacts['record'], now: Date): boolean {
  if (!record?.subscribed) return false;
  if (!record.expiresAt) return true;
  const expires = expiryMsOf(record.expiresAt);
  return Number.isNaN(expires) ? false : expires > now.getTime();
}

/**
 * Whether a seat gives its holder the owner's plan now: the owner's subscription is current and
 * its plan has room for colleagues (the plan table's `seats`). A lapsed, downgraded or removed
 * owner plan ends every seat on it at once.
 */
export function seatIsCurrent(seat: SeatFacts | null | undefined, now: Date): boolean {
  if (!seat?.owner || !hasActiveSubscription(seat.owner, now)) return false;
  return (findPlan(seat.owner.plan)?.seats ?? 1) > 1;
}

/**
 * The plan that opens doors for this visitor now: their own current plan, or the plan of a seat
 * they hold, whichever is dearer (a Basic subscriber on a Platinum seat reads as Platinum);
 * null when neither is current. Roles and the trial are not plans: see `entitlementOf`.
 */
export function planInUse(session: SessionFacts | null, now: Date): PlanInUse | null {
  if (!session) return null;
  const own: PlanInUse | null = hasActiveSubscription(session.record, now) ? { plan: session.record?.plan, expiresAt: session.record?.expiresAt, via: 'own' } : null;
  const seat: PlanInUse | null = seatIsCurrent(session.seat, now) ? { plan: session.seat?.owner?.plan, expiresAt: session.seat?.owner?.expiresAt, via: 'seat' } : null;
  if (!own || !seat) return own ?? seat;
  // An unknown own plan counts as everything (the policy's rule for plans the table does not know).
  const price = (use: PlanInUse) => findPlan(use.plan)?.pricePaise ?? Number.POSITIVE_INFINITY;
  return price(seat) > price(own) ? seat : own;
}

/**
 * The plan whose seats this visitor may hand out now: their own current plan when it has room for
 * colleagues. A seat-holder's rights come from someone else's plan, so a seat-holder never
 * invites, removes, renews or upgrades on it (and the owner's invoices are the owner's).
 */
export function seatPlanOf(session: SessionFacts | null, now: Date): Plan | null {
  if (!session || !hasActiveSubscription(session.record, now)) return null;
  const plan = findPlan(session.record?.plan);
  return plan && colleagueSeatsOf(plan) > 0 ? plan : null;
}

export function entitlementOf(session: SessionFacts | null, now: Date): Entitlement {
  if (!session) return 'anonymous';
  const record = session.record;
  if (record?.role === 'admin') return 'admin';
  const inUse = planInUse(session, now);
  if (inUse) return planAccess(inUse.plan) === 'limited' ? 'limited' : 'full';
  // An expired subscription is no subscription: the trial rule sees an unsubscribed user.
  const trial = isInTrial(record ? { ...record, subscribed: false } : null, isoDateOf(now));
  return trial ? 'full' : 'none';
}

/** Server islands that show public data only (Astro serves each at /_server-islands/{component}). */
const PUBLIC_SERVER_ISLANDS: ReadonlySet<string> = new Set(['/_server-islands/LatestHeadlines']);

/** The newsroom's admin pages and endpoints (posts, banners, the desk's forecasts), open to editors (everything else under /admin is admin-only). */
const EDITOR_PAGES = ['/admin/posts', '/admin/banners', '/admin/forecasts'];
const EDITOR_APIS = ['/api/admin/posts', '/api/admin/banners', '/api/admin/forecasts'];

/**
 * `/api/blogs?type=…` asks what the type's own section asks when that is a limited section
 * (buy-sell, VIP delegations, services: the accounts that may open those pages may read their
 * posts' list); every other type, and a missing or unknown one, is data (`full`).
 */
export function blogsRequirement(search: string): 'limited' | 'full' {
  const type = new URLSearchParams(search).get('type');
  const resolved = type ? resolveNewsType(type) : null;
  const section = resolved ? newsTypeSectionPath(resolved) : null;
  return section !== null && requirementOf(section) === 'limited' ? 'limited' : 'full';
}

/** API paths and what they ask; first match wins. Data endpoints not listed here are `full`. */
const API_RULES: readonly [(path: string) => boolean, Requirement][] = [
  [(p) => EDITOR_APIS.some((prefix) => under(p, prefix)), 'editor'],
  [(p) => under(p, '/api/admin'), 'admin'],
  [(p) => under(p, '/api/auth') || p === '/api/session' || p === '/api/health', 'public'],
  [(p) => under(p, '/api/carousels'), 'public'],
  [(p) => p === '/api/payments/webhook', 'public'],
  // Meta's webhook checks its signature; the job endpoints (exactly these) their bearer secret; unsubscribe its signed token.
  [(p) => p === '/api/whatsapp/webhook' || isJobPath(p) || p === ONE_CLICK_UNSUBSCRIBE_PATH, 'public'],
  // What /alerts offers follows the plan: its endpoints answer 403 with the reason.
  [(p) => under(p, '/api/alerts'), 'signedIn'],
  [(p) => p === '/api/sendMail' || under(p, '/api/enquiries'), 'public'],
  [(p) => p === '/api/makePayment' || under(p, '/api/payments') || under(p, '/api/profile'), 'signedIn'],
  // The account's own documents and settings: the handler serves only the caller's own.
  [(p) => under(p, '/api/account'), 'signedIn'],
  // The home page's Naphtha teaser is a shape without figures; its ticker answers everyone, with
  // figures only for the plans that open the data (names and direction for the others).
  [(p) => p === '/api/home/teaser' || p === '/api/home/ticker', 'public'],
  // The data feed: its description is public, its data needs a plan with the feed (a key or a cookie).
  [(p) => p === '/api/v1/openapi.json', 'public'],
  [(p) => under(p, '/api/v1'), 'feed'],
  // Comparisons, their exports and saved views (full implies a sign-in).
  [(p) => under(p, '/api/series') || under(p, '/api/views'), 'full'],
];

/** A premium or limited post's full text: signed-in readers; the page decides by the post's own access. */
const POST_FULL_TEXT = /^\/news\/[^/]+\/full$/;

export function requirementOf(pathname: string, search = ''): Requirement {
  const path = normalizePath(pathname);
  if (path === '/api/blogs') return blogsRequirement(search);
  if (under(path, '/api')) return API_RULES.find(([match]) => match(path))?.[1] ?? 'full';
  if (isPublicPath(path)) return 'public';
  // The installable app's manifest, service worker, icons and offline page (not pages to index).
  if (isAppShellPath(path)) return 'public';
  // Server islands are public by name: a new island falls through to `full` until it has its row
  // here (an island with gated content must not be public because its author forgot a check).
  if (PUBLIC_SERVER_ISLANDS.has(path)) return 'public';
  if (POST_FULL_TEXT.test(path)) return 'limited';
  if (EDITOR_PAGES.some((prefix) => under(path, prefix))) return 'editor';
  if (under(path, '/admin')) return 'admin';
  if (path === '/subscription' || path === '/details' || path === '/alerts' || path === '/account') return 'signedIn';
  // The data feed's keys: every signed-in user may see and revoke theirs; making one asks the plan (the page says which).
  if (path === '/account/api-keys') return 'signedIn';
  // Where an invited colleague accepts a team seat: signed in as the invited address (the page checks it).
  if (path === '/account/join') return 'signedIn';
  // A signed link from a delivery mail (rendered on demand: not a prerendered public page).
  if (path === UNSUBSCRIBE_PAGE_PATH) return 'public';
  if (LIMITED_SECTIONS.some((section) => under(path, section))) return 'limited';
  return 'full';
}

const RANK: Record<Entitlement, number> = { anonymous: 0, none: 1, limited: 2, full: 3, admin: 4 };
const NEEDS: Record<Exclude<Requirement, 'editor' | 'feed'>, number> = { public: 0, signedIn: 1, limited: 1, full: 3, admin: 4 };

/** The newsroom's roles: editors (granted by an admin) and admins. */
export const isEditorRole = (role: string | null | undefined): boolean => role === 'editor' || role === 'admin';

/** Whether an entitlement (as the middleware computed it for the session) meets a plan requirement. */
export const entitlementMeets = (requirement: Exclude<Requirement, 'editor' | 'feed'>, entitlement: Entitlement): boolean => RANK[entitlement] >= NEEDS[requirement];

/** Whether a visitor meets a requirement (the test every decision starts with). */
export function meets(requirement: Requirement, session: SessionFacts | null, now: Date): boolean {
  if (requirement === 'editor') return session !== null && isEditorRole(session.record?.role);
  if (requirement === 'feed') return hasDataFeed(session, now);
  return entitlementMeets(requirement, entitlementOf(session, now));
}

/** Whether the visitor's plan includes the data feed now: a current plan (own or a seat's) with `dataFeed`, or an administrator. */
export function hasDataFeed(session: SessionFacts | null, now: Date): boolean {
  if (!session) return false;
  if (session.record?.role === 'admin') return true;
  const inUse = planInUse(session, now);
  return inUse !== null && findPlan(inUse.plan)?.dataFeed === true;
}

/** The plans that include the data feed (the refusal names them). */
const feedPlans = (): string => plans.filter((p) => p.dataFeed).map((p) => p.name).join(' and ');

const allow: Decision = { kind: 'allow' };

/** Where an anonymous visitor signs in before coming back. */
export const signInPath = (pathname: string, search = ''): string =>
  `/register?next=${encodeURIComponent(`${pathname}${search}`)}`;

/**
 * The decision for a page or API request. Pages redirect (anonymous → /register, no plan →
 * /subscription, a limited plan → /, both with `?locked=` naming the screen); API paths answer
 * 401 or 403 (`history_limit` for prices older than the plan reaches) and never redirect.
 */
export function decide(pathname: string, session: SessionFacts | null, now: Date, search = ''): Decision {
  const path = normalizePath(pathname);
  return decideFor(requirementOf(path, search), path, session, now, search);
}

/**
 * The decision for a path that asks `requirement` (pages whose requirement depends on what they
 * show, such as a post's full text, ask this with the requirement of their content).
 */
export function decideFor(requirement: Requirement, pathname: string, session: SessionFacts | null, now: Date, search = ''): Decision {
  const path = normalizePath(pathname);
  const entitlement = entitlementOf(session, now);
  const isApi = under(path, '/api');

  // A subscriber has nothing to buy on /subscription, unless the plan is about to
  // lapse and the header invites renewal.
  if (path === '/subscription' && (entitlement === 'limited' || (entitlement === 'full' && hasActiveSubscription(session?.record ?? null, now)))) {
    if (!renewalDue(session?.record ?? null, now)) return { kind: 'redirect', to: '/' };
  }

  if (meets(requirement, session, now)) {
    if (!isApi) return allow;
    // Prices older than the plan's history reach: the data API says which parameter and why.
    const reach = historyReachOf(session, now);
    const over = historyOverreach(path, search, reach);
    return over ? { kind: 'deny', status: 403, code: 'history_limit', message: historyLimitMessage(reach, Number(isoDateOf(now).slice(0, 4))), field: over.field } : allow;
  }

  const staffOnly = requirement === 'admin' || requirement === 'editor';
  if (isApi) {
    return entitlement === 'anonymous'
      ? { kind: 'deny', status: 401, code: 'unauthenticated', message: 'Sign in to use this endpoint.' }
      : {
          kind: 'deny',
          status: 403,
          code: 'forbidden',
          message:
            requirement === 'admin'
              ? 'Administrators only.'
              : requirement === 'editor'
                ? 'Editors and administrators only.'
                : requirement === 'feed'
                  ? `Your plan does not include the data feed (${feedPlans()} ${feedPlans().includes(' and ') ? 'include' : 'includes'} it), or it has lapsed.`
                  : 'Your plan does not include this data.',
        };
  }
  if (entitlement === 'anonymous') return { kind: 'redirect', to: signInPath(path, search) };
  if (staffOnly) return { kind: 'deny', status: 403, code: 'forbidden', message: requirement === 'admin' ? 'Administrators only.' : 'Editors and administrators only.' };
  // The original's targets (a limited plan → /, no plan → /subscription), with the screen that
  // was closed as `?locked=`: the target shows the plan table's notice for it.
  return { kind: 'redirect', to: withLockedScreen(entitlement === 'limited' ? '/' : '/subscription', path) };
}

/** The query parameter naming the screen a paywall redirect came from (a SCREENS id). */
export const LOCKED_PARAM = 'locked';

/** `/?locked=feedstock`: the target with the id of the screen `path` belongs to (the bare target when it is none). */
export function withLockedScreen(target: '/' | '/subscription', path: string): string {
  const screen = screenOfPath(path);
  return screen ? `${target}?${LOCKED_PARAM}=${screen.id}` : target;
}

/**
 * How many years before the current one the visitor's screens reach (the plan table's
 * `historyYears`): a plan's own, the trial plan's during the trial, every year for an
 * administrator and for a plan the table does not know (as the policy's "unknown plan" rule).
 */
export function historyYearsOf(session: SessionFacts | null, now: Date): number | null {
  const entitlement = entitlementOf(session, now);
  if (entitlement === 'admin') return null;
  if (entitlement === 'anonymous' || entitlement === 'none') return 0;
  const inUse = planInUse(session, now);
  if (inUse) {
    const plan = findPlan(inUse.plan);
    return plan ? plan.historyYears : null;
  }
  return trialPlan().historyYears;
}

export const historyReachOf = (session: SessionFacts | null, now: Date): HistoryReach => reachOf(historyYearsOf(session, now), isoDateOf(now));

/** Days before expiry from which the header invites renewal and /subscription opens again. */
export const RENEWAL_WINDOW_DAYS = 15;

export function renewalDue(record: SessionFacts['record'], now: Date): boolean {
  if (!record?.subscribed || !record.expiresAt) return false;
  const expires = Date.parse(record.expiresAt);
  if (Number.isNaN(expires)) return false;
  const left = expires - now.getTime();
  return left > 0 && left <= RENEWAL_WINDOW_DAYS * 86_400_000;
}
