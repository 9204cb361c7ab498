import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../domain/app-error.ts';
import type { ServeMetrics } from './registry.ts';

/** The metrics listener: its own port, apart from the partner API, unauthenticated like every exporter. */
export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** Serves `GET /metrics` (and nothing else: 404) on host:port; resolves once listening. */
export async function listenMetrics(metrics: ServeMetrics, host: string, port: number): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
      },
      (err: Error) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics failed: ${err.message}\n`);
      },
    );
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const change =
        err.code === 'EADDRINUSE'
          ? 'the port is in use: choose another with SVC_METRICS_PORT or --metrics-port'
          : 'change SVC_METRICS_HOST/--metrics-host or SVC_METRICS_PORT/--metrics-port';
      reject(new AppError('invalid_setting', `cannot listen for metrics on ${host}:${port}: ${err.message}; ${change}`, { cause: err }));
    });
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
