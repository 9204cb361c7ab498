import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { svcCommand } from './svc-build.ts';

/** `bin/svc serve` running as a child process on 127.0.0.1, with its pino log lines. */
export interface ServeChild {
  url: string;
  child: ChildProcess;
  /** Every JSON log line so far. */
  logs: Record<string, unknown>[];
  /** What it wrote to standard error (a crash's stack trace lands here). */
  stderr(): string;
  /** Still running: not exited and not killed by a signal. */
  alive(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs` if it has not gone; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `svc serve --port 0` (test/support/svc-build.ts) on `dbUrl` and resolves once it logs `listening` (rejects if it exits first or takes over `timeoutMs`). */
export async function startServeChild(dbUrl: string, env: Record<string, string> = {}, timeoutMs = 15_000): Promise<ServeChild> {
  const svc = svcCommand();
  const child = spawn(svc.command, [...svc.args, 'serve', '--db', dbUrl, '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, ...svc.env, SVC_LOG_LEVEL: 'info', SVC_SHUTDOWN_GRACE_MS: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = once(child, 'exit');
  const stop = async (graceMs = 3000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(kill);
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc serve did not start within ${timeoutMs} ms: ${err}`)), timeoutMs);
    createInterface({ input: child.stdout }).on('line', (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      logs.push(entry);
      if (entry.msg === 'listening') {
        clearTimeout(timer);
        resolve(String(entry.url));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`svc serve exited (${code ?? signal}) before listening: ${err}`));
    });
  }).catch(async (e: unknown) => {
    await stop(0);
    throw e;
  });
  return {
    url,
    child,
    logs,
    stderr: () => err,
    alive: () => child.exitCode === null && child.signalCode === null,
    stop,
  };
}
