// The service's own logger (server/log.ts, with its redaction) writing into an array: for tests that check what is
// logged, or wait for a decision the service logs.
import { createLogger, type Logger } from '../server/log.js';

interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

export interface CapturedLog {
  log: Logger;
  /** Every line written so far, parsed. */
  lines: LogLine[];
  /** Every line as written, for searching for what must never be there. */
  raw: string[];
  /** Waits until `check` holds for the lines (polling; fails after `ms`). */
  waitFor(check: (lines: LogLine[]) => boolean, ms?: number): Promise<void>;
}

export function captureLog(level: string): CapturedLog {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const log = createLogger(level, {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line) as LogLine);
    },
  });
  return {
    log,
    lines,
    raw,
    waitFor: async (check, ms = 60_000) => {
      const end = Date.now() + ms;
      while (!check(lines)) {
        if (Date.now() > end) throw new Error('timed out waiting for a log line');
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}
