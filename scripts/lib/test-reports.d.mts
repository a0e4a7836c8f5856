export const VITEST_REPORT: string;
export const E2E_REPORT: string;
export const E2E_SUMMARY: string;
