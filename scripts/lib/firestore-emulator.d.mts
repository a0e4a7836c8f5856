export const FIRESTORE_EMULATOR_PACKAGE: string;
export function findFirestoreEmulator(env?: NodeJS.ProcessEnv): { script: string; found: string } | { script: null; reason: string };
export function isFirestoreEmulator(host: string, timeoutMs?: number): Promise<boolean>;
export function emptyFirestoreProject(host: string, projectId: string, databaseId?: string): Promise<void>;
export interface FirestoreEmulator {
  /** `127.0.0.1:port` — what FIRESTORE_EMULATOR_HOST would say. */
  readonly host: string;
  readonly kind: 'emulator';
  empty(projectId: string): Promise<void>;
  stop(timeoutMs?: number): Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>;
}
export function startFirestoreEmulator(options: { script: string; host?: string; port?: number; timeoutMs?: number }): Promise<FirestoreEmulator>;
export interface LocalFirestore {
  readonly host: string;
  readonly kind: 'emulator' | 'stand-in';
  /** Which one runs, where, and why: for the run's report. */
  readonly label: string;
  empty(projectId: string): Promise<void>;
  stop(): Promise<void>;
  /** Settles when Google's emulator's process ends (never for the stand-in, which lives in this process). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>;
}
export function startLocalFirestore(options?: { env?: NodeJS.ProcessEnv; port?: number }): Promise<LocalFirestore>;
