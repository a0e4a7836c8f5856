export interface FirestoreFake {
  /** `127.0.0.1:port` — what FIRESTORE_EMULATOR_HOST would say. */
  readonly host: string;
  clear(): void;
  stop(): Promise<void>;
}
export function startFirestoreFake(options?: { port?: number }): Promise<FirestoreFake>;
