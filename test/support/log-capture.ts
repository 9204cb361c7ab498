import { AssertionError } from 'node:assert';
import { pino, type Level, type Logger } from 'pino';

/** Pino's number for `warn`: lines at it or above are what a test must expect or fail on. */
const WARN = 40;

/** A logger whose lines are kept, parsed, and checked for warnings and errors no test expected. */
export interface LogCapture {
  logger: Logger;
  /** Every line logged so far, parsed. */
  lines: Record<string, any>[];
  /** Declares that warnings or errors whose `msg` matches are expected, until the next `check`. */
  expect(msg: string | RegExp): void;
  /**
   * Throws, listing them, if a warning or error logged since the last check matches no
   * expectation; then forgets the expectations. A world calls it after each test and on close.
   */
  check(where?: string): void;
}

/**
 * A pino logger at `level` (info unless TEST_LOG says otherwise) whose lines are kept in `lines`;
 * with TEST_LOG set they are also written to stderr, for a person reading a failing run.
 */
export function capturingLogger(level: Level = 'info'): LogCapture {
  const lines: Record<string, any>[] = [];
  const echo = process.env.TEST_LOG !== undefined;
  const logger = pino(
    { level: process.env.TEST_LOG ?? level },
    {
      write: (line: string) => {
        lines.push(JSON.parse(line));
        if (echo) process.stderr.write(line);
      },
    },
  );
  let checked = 0;
  let expected: Array<string | RegExp> = [];
  const isExpected = (msg: unknown) => expected.some((e) => (typeof e === 'string' ? msg === e : e.test(String(msg))));
  return {
    logger,
    lines,
    expect: (msg) => void expected.push(msg),
    check(where = 'this test') {
      const unexpected = lines.slice(checked).filter((l) => l.level >= WARN && !isExpected(l.msg));
      checked = lines.length;
      expected = [];
      if (unexpected.length > 0) {
        throw new AssertionError({
          message: `unexpected warning or error logged during ${where}:\n${unexpected.map((l) => JSON.stringify(l)).join('\n')}`,
        });
      }
    },
  };
}
