import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, type Store } from '../../src/store/connect.ts';
import { onPorts, type DemoPorts, type DocExample, type ShellBlock } from './doc-examples.ts';
import { demoState, type DemoState } from './demo-state.ts';
import { waitForOutput } from './wait.ts';
import { freePort } from './free-port.ts';
import { demoExports } from './demo-exports.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the examples reach in a checkout: commands, sources, data they read. Writes elsewhere land in the demo directory. */
const CHECKOUT_ENTRIES = ['bin', 'src', 'scripts', 'fixtures', 'node_modules', 'package.json', 'package-lock.json', 'tsconfig.json'];
/** Copied, not linked: the example receiver runs only when started as itself (its path, not a link's, is the script's). */
const COPIED_ENTRIES = ['examples'];

/** One example's run: its shell's exit and output, and the statuses the demo server logged for its calls. */
export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  statuses: number[];
}

/** `npm run demo` (scripts/demo.sh) in a directory of its own, with the docs' background commands running beside it. */
export interface DemoWorld {
  dir: string;
  ports: DemoPorts;
  /** What the background commands (the webhook receiver) printed so far. */
  backgroundOutput(): string;
  /** Resolves once the background commands' output matches `pattern` (woken by their output, not by polling). */
  untilBackground(pattern: RegExp, limitMs: number): Promise<void>;
  run(example: DocExample): Promise<ExampleRun>;
  state(): Promise<DemoState>;
  close(): Promise<void>;
}

/** This process's environment without any SVC_ setting, so only what the docs tell a reader to set applies. */
function readerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SVC_') && k !== 'DEMO_RECEIVER_PORT') env[k] = v;
  // bin/svc as a reader runs it: the compiled build in .build/, which the launcher rebuilds first
  // whenever a source is newer, so the examples run the current sources. Through tsx instead, each
  // command cost about 1 s of CPU more: the test took 87 s of CPU where it now takes 33 s.
  return { ...env, ...extra };
}

function collect(child: ChildProcess): { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  return { out: () => out, err: () => err };
}

/** Resolves once `child` prints `pattern`; rejects if it exits first, saying what it printed. */
function ready(child: ChildProcess, seen: () => string, pattern: RegExp, limitMs: number, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${what} exited (${code}) before it was ready: ${seen()}`));
    child.once('exit', onExit);
    waitForOutput(child.stdout!, seen, pattern, limitMs)
      .finally(() => child.off('exit', onExit))
      .then(resolve, reject);
  });
}

async function stop(child: ChildProcess, group: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  const kill = (signal: NodeJS.Signals) => (group ? process.kill(-child.pid!, signal) : child.kill(signal));
  kill('SIGTERM');
  const hard = setTimeout(() => kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(hard);
}

export async function startDemoWorld(background: ShellBlock[]): Promise<DemoWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-doc-examples-'));
  for (const entry of CHECKOUT_ENTRIES) symlinkSync(join(ROOT, entry), join(dir, entry));
  for (const entry of COPIED_ENTRIES) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  mkdirSync(join(dir, 'data'));
  const ports: DemoPorts = { api: 0, receiver: await freePort() };
  const closers: (() => Promise<void>)[] = [async () => rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  try {
    // The README's one set-up command, as `npm run demo` runs it, on ports of its own.
    const demo = spawn('bash', ['scripts/demo.sh'], {
      cwd: dir,
      env: readerEnv({
        SVC_DATABASE_URL: 'sqlite:data/demo.db',
        SVC_PORT: '0',
        SVC_LOG_FORMAT: 'json',
        SVC_LOG_LEVEL: 'info',
        DEMO_RECEIVER_PORT: String(ports.receiver),
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const demoOut = collect(demo);
    closers.push(() => stop(demo, false));
    const seenDemo = () => demoOut.out() + demoOut.err();
    const listening = await ready(demo, seenDemo, /^\{.*"url":"http:\/\/127\.0\.0\.1:(\d+)".*"msg":"listening"/m, 120_000, 'npm run demo');
    ports.api = Number(listening[1]);
    const printed = demoExports(demoOut.out());
    if (!printed.SVC_KEY?.startsWith('svc_live_')) throw new Error(`npm run demo printed no key: ${demoOut.out()}`);
    const store: Store = await openStore(`sqlite:${join(dir, 'data', 'demo.db')}`);
    closers.push(() => store.close());
    // What the demo prints for the reader to export, and nothing else, in every shell the docs use.
    const env = readerEnv(printed);

    let bgOut = '';
    const bgStream = new PassThrough();
    for (const block of background) {
      const child = spawn('bash', ['-c', onPorts(block.code, ports)], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const out = collect(child);
      child.stdout.on('data', (c: string) => {
        bgOut += c;
        bgStream.write(c);
      });
      closers.push(() => stop(child, true));
      // A background command says when it is ready with a line holding "listening" (the receiver does).
      await ready(child, () => out.out() + out.err(), /listening/, 60_000, block.where);
    }

    let runs = 0;
    let logsSeen = 0;
    const logLines = () => {
      const out = demoOut.out();
      return out
        .slice(0, out.lastIndexOf('\n'))
        .split('\n')
        .filter((l) => l.startsWith('{'));
    };
    return {
      dir,
      ports,
      backgroundOutput: () => bgOut,
      untilBackground: async (pattern, limitMs) => {
        await waitForOutput(bgStream, () => bgOut, pattern, limitMs);
      },
      async run(example) {
        const script = ['set -euo pipefail', ...example.setup, example.code].map((c) => onPorts(c, ports)).join('\n');
        const child = spawn('bash', ['-c', script], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
        const out = collect(child);
        // 'close': exited, and its output read to the end.
        const [code] = (await once(child, 'close')) as [number | null];
        // A call of the test's own after each example: once its log line is in, every line of the example's calls is.
        const mark = `/_examples/${++runs}`;
        await fetch(`http://127.0.0.1:${ports.api}${mark}`).then((r) => r.arrayBuffer());
        await waitForOutput(demo.stdout, demoOut.out, new RegExp(`"path":"${mark}"`), 30_000);
        const lines = logLines().map((l) => JSON.parse(l) as { msg?: string; path?: string; status?: number });
        const mine = lines.slice(logsSeen).filter((l) => l.msg === 'request');
        logsSeen = lines.length;
        const statuses = mine.filter((l) => l.path !== mark).map((l) => l.status!);
        return { code, stdout: out.out(), stderr: out.err(), statuses };
      },
      state: () => demoState(store, dir),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
