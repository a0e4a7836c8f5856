export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}
export function exitStatusOf(exit: ChildExit): number;
export function describeExit(exit: ChildExit): string;
export function stoppedCleanly(exit: ChildExit): boolean;
