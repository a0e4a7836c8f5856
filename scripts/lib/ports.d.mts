export function freePort(host?: string): Promise<number>;
export function freePortRun(count: number, host?: string): Promise<number>;
export function bindable(port: number, host: string): Promise<boolean>;
