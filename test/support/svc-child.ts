import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { svcCommand } from './svc-build.ts';

/** `bin/svc <args>` as a child process, with what it printed so far. */
export interface SvcChild {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal that killed it). */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** Starts `svc <args>` (test/support/svc-build.ts) with `env` over this process's environment. */
export function spawnSvc(args: string[], env: Record<string, string> = {}): SvcChild {
  const svc = svcCommand();
  const child = spawn(svc.command, [...svc.args, ...args], {
    env: { ...process.env, ...svc.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  return { child, stdout: () => out, stderr: () => err, exited: once(child, 'exit') as SvcChild['exited'] };
}

/** Starts `bin/svc sync [flags]` on `dbUrl` with insecure webhooks allowed and one request at a time per endpoint, unless `env` says otherwise. */
export function spawnSync(dbUrl: string, env: Record<string, string> = {}, flags: string[] = []): SvcChild {
  return spawnSvc(['sync', ...flags, '--db', dbUrl], {
    SVC_ALLOW_INSECURE_WEBHOOKS: '1',
    SVC_WEBHOOK_CONCURRENCY_PER_ENDPOINT: '1',
    ...env,
  });
}
