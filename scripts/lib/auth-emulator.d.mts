export function portIsOpen(host: string, port: number): Promise<boolean>;
export function waitForPort(host: string, port: number, timeoutMs: number, isAlive?: () => boolean): Promise<boolean>;
export function emulatorLogDir(dataDir: string): string;
export const EMULATOR_START_LIMIT_MS: number;
export const EMULATOR_START_ATTEMPTS: number;
export const RESTART_FIRST_DELAY_MS: number;
export const RESTART_MAX_DELAY_MS: number;
export const RESTART_CALM_MS: number;
export function restartDelayMs(restart: number): number;
export interface AuthEmulator {
  stop: (timeoutMs?: number) => Promise<void>;
  reused: boolean;
  /** Settles when the emulator process ends (never for a reused one). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
export function startAuthEmulator(options: {
  emulatorHost: string;
  projectId: string;
  dataDir: string;
  startLimitMs?: number;
  attempts?: number;
  signal?: AbortSignal;
}): Promise<AuthEmulator>;
export function superviseAuthEmulator(options: {
  first: AuthEmulator;
  start: (signal: AbortSignal) => Promise<AuthEmulator>;
  afterRestart?: () => Promise<void>;
  isStopping?: () => boolean;
  now?: () => number;
}): { stop: (timeoutMs?: number) => Promise<void> };
