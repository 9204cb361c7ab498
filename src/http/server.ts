import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerResponse, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AppError } from '../domain/app-error.ts';
import { clientErrorListener, type ClientErrorAnswer } from './client-error.ts';

export interface ListenOptions {
  host: string;
  port: number;
  tls?: { certFile: string; keyFile: string };
  /** Told of every request Node refused before the app saw it (431, 400, 408), after it is answered. */
  onClientError?: (answer: ClientErrorAnswer) => void;
  /**
   * How long a client may take to send its headers and its whole request (default 15 s and 30 s,
   * checked every 30 s); shorter ones are checked a few times within them.
   */
  timeouts?: { headersMs: number; requestMs: number };
}

export const DEFAULT_TIMEOUTS = { headersMs: 15_000, requestMs: 30_000 };

/** A listening server and how to stop it gracefully. */
export interface RunningServer {
  server: Server;
  url: string;
  /**
   * Stops accepting connections, lets in-flight requests finish, and after `graceMs` cuts what is
   * left. Resolves once the server is closed.
   */
  stop(graceMs: number): Promise<void>;
}

function readTls(tls: NonNullable<ListenOptions['tls']>): { cert: Buffer; key: Buffer } {
  try {
    return { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) };
  } catch (err) {
    throw new AppError(
      'invalid_setting',
      `cannot read the TLS certificate or key (SVC_TLS_CERT/--tls-cert, SVC_TLS_KEY/--tls-key): ${(err as Error).message}`,
      { cause: err },
    );
  }
}

/**
 * Answers a request, as Koa's `app.callback()` does: its promise settles once the answer is sent and
 * never rejects (Koa renders every error itself).
 */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Node's listener for `handler`: Node ignores what a listener returns, so nothing awaits it. */
export function nodeListener(handler: RequestHandler): RequestListener {
  return (req, res) => void handler(req, res);
}

/** Listens with `handler` (e.g. `app.callback()`) over HTTP, or HTTPS when a certificate is given. */
export async function listen(handler: RequestHandler, options: ListenOptions): Promise<RunningServer> {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  // Node's own check of the two timeouts runs every 30 s unless told otherwise.
  const checking = options.timeouts ? { connectionsCheckingInterval: Math.max(10, Math.floor(timeouts.headersMs / 4)) } : {};
  const server: Server = options.tls
    ? createHttpsServer({ ...readTls(options.tls), ...checking }, nodeListener(handler))
    : createHttpServer(checking, nodeListener(handler));
  // Slow or stuck clients must not hold a connection for ever.
  server.requestTimeout = timeouts.requestMs;
  server.headersTimeout = timeouts.headersMs;
  server.on('clientError', clientErrorListener(options.onClientError));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const change =
        err.code === 'EADDRINUSE'
          ? 'the port is in use: choose another with SVC_PORT or --port (0 picks a free one)'
          : 'change SVC_HOST/--host or SVC_PORT/--port';
      reject(
        new AppError('invalid_setting', `cannot listen on ${options.host}:${options.port}: ${err.message}; ${change}`, { cause: err }),
      );
    });
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `${options.tls ? 'https' : 'http'}://${host}:${port}`;
  let stopping: Promise<void> | undefined;
  return {
    server,
    url,
    stop(graceMs) {
      stopping ??= new Promise<void>((resolve) => {
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        // A keep-alive connection whose request just finished would otherwise be held open until
        // its idle timeout: drop idle ones as soon as they become idle.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        cut.unref();
        sweep.unref();
        server.close(() => {
          clearTimeout(cut);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      return stopping;
    },
  };
}
