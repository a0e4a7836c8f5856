export function portIsOpen(host: string, port: number): Promise<boolean>;
export function waitForPort(host: string, port: number, timeoutMs: number, isAlive?: () => boolean): Promise<boolean>;
export function startAuthEmulator(options: { emulatorHost: string; projectId: string; dataDir: string }): Promise<{ stop: () => Promise<void>; reused: boolean }>;
