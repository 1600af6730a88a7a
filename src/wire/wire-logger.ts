/**
 * WireLogger: the little logging wire/ needs (the composition root passes its logger; default: stderr).
 */
export interface WireLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export const consoleLogger: WireLogger = {
  info: (m) => console.log(m),
  warn: (m) => console.warn(m),
  error: (m, e) => console.error(m, e instanceof Error ? (e.stack ?? e.message) : (e ?? '')),
};

export const silentLogger: WireLogger = { info: () => {}, warn: () => {}, error: () => {} };
