/**
 * The Firestore of this test run (tests/setup/firestore.ts): Google's emulator where it is
 * installed, else the in-memory stand-in. Every test that opens a Firestore passes this host;
 * none reads FIRESTORE_EMULATOR_HOST, which the Google client would obey over any host given
 * in code (vitest.config.ts removes it from the tests' environment).
 */
import { inject } from 'vitest';

export interface SuiteFirestore {
  /** `127.0.0.1:port`. */
  readonly host: string;
  /** `emulator`: Google's (transactions isolated across processes, as in Firestore); `stand-in`: not. */
  readonly kind: 'emulator' | 'stand-in';
  readonly label: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    firestore: SuiteFirestore;
  }
}

export function suiteFirestore(): SuiteFirestore {
  const firestore = inject('firestore');
  if (!firestore) throw new Error("this Vitest project has no Firestore: add 'tests/setup/firestore.ts' to its globalSetup (vitest.config.ts)");
  return firestore;
}

/** Google's emulator runs: tests that need transactions isolated across processes can run. */
export const realFirestore = (): boolean => suiteFirestore().kind === 'emulator';

/** A project id no other test uses (the demo- prefix keeps Google's client off real projects). */
export const freshProjectId = (prefix = 'test'): string => `demo-${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
