export function portIsOpen(host: string, port: number): Promise<boolean>;
export function waitForPort(host: string, port: number, timeoutMs: number, isAlive?: () => boolean): Promise<boolean>;
export function emulatorLogDir(dataDir: string): string;
export function startAuthEmulator(options: { emulatorHost: string; projectId: string; dataDir: string }): Promise<{
  stop: (timeoutMs?: number) => Promise<void>;
  reused: boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}>;
