import { Command } from 'commander';
import { assertServeSettings } from '../../config/config.ts';
import { isLoopbackHost } from '../../domain/address-policy.ts';
import { AUDIT_MAX_QUEUED } from '../../services/audit.ts';
import { openStore } from '../../store/connect.ts';
import { assertMigrated } from '../../store/migrator.ts';
import { port } from '../arguments.ts';
import type { MetricsListener } from '../../http/metrics/listener.ts';
import { commandClock, commandConfig, tracedQueryLog, type CliDeps } from '../context.ts';

interface ServeOptions {
  port?: number;
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: boolean;
  allowInsecureWebhooks?: boolean;
  metricsPort?: number;
  metricsHost?: string;
}

/**
 * `svc serve`: the read API over the configured store, until SIGTERM/SIGINT. Shutdown stops
 * accepting connections, lets in-flight requests finish (up to SVC_SHUTDOWN_GRACE_MS), then closes
 * the store. Logs go to standard output, one line per request with the request id: readable
 * (pino-pretty) on a terminal or with SVC_LOG_FORMAT=pretty, JSON lines otherwise.
 */
export function serveCommand(deps: CliDeps): Command {
  return new Command('serve')
    .description(
      'run the HTTP API (logs on standard output: readable on a terminal, JSON lines otherwise; stops cleanly on SIGTERM/SIGINT)',
    )
    .option('--port <n>', 'port to listen on (default: $SVC_PORT, else 8080; 0 picks a free one)', port)
    .option('--host <address>', 'address to bind (default: $SVC_HOST, else 127.0.0.1)')
    .option('--tls-cert <file>', 'PEM certificate: serve HTTPS (with --tls-key)')
    .option('--tls-key <file>', 'PEM private key for --tls-cert')
    .option('--trust-proxy', 'behind a TLS-terminating proxy: trust X-Forwarded-Proto/-Host/-For')
    .option('--allow-insecure-webhooks', 'accept webhook URLs on loopback/private addresses and http to loopback (local testing only)')
    .option(
      '--metrics-port <n>',
      'serve Prometheus metrics (GET /metrics) on this port, apart from the API (default: $SVC_METRICS_PORT, else none)',
      port,
    )
    .option('--metrics-host <address>', 'address of the metrics listener (default: $SVC_METRICS_HOST, else 127.0.0.1)')
    .action(async (opts: ServeOptions, cmd: Command) => {
      const config = commandConfig(deps, cmd, {
        port: opts.port,
        host: opts.host,
        tlsCert: opts.tlsCert,
        tlsKey: opts.tlsKey,
        trustProxy: opts.trustProxy || undefined,
        allowInsecureWebhooks: opts.allowInsecureWebhooks || undefined,
        metricsPort: opts.metricsPort,
        metricsHost: opts.metricsHost,
      });
      assertServeSettings(config);
      // Loaded when serve runs: the HTTP stack is most of the CLI's modules, and no other command needs it (docs/architecture.md).
      const [{ createApp }, { listen }, { createLogger }] = await Promise.all([
        import('../../http/app.ts'),
        import('../../http/server.ts'),
        import('../logger.ts'),
      ]);
      const logger = createLogger(config, deps.stdout, deps.tracing?.spans);
      // A store that stops answering fails requests after storeTimeoutMs instead of holding them.
      const store = await openStore(config.databaseUrl, {
        timeoutMs: config.storeTimeoutMs,
        create: false,
        log: tracedQueryLog(deps, config),
      });
      try {
        await assertMigrated(store.db, store.displayUrl);
      } catch (err) {
        await store.close();
        throw err;
      }
      const clock = commandClock(deps, config);
      // prom-client is loaded only by a server that serves metrics.
      const metrics =
        config.metricsPort === undefined
          ? undefined
          : (await import('../../http/metrics/registry.ts')).createServeMetrics({
              db: store.db,
              clock: deps.clock,
              auditBacklog: () => app.services.audit.backlog,
              auditCapacity: AUDIT_MAX_QUEUED,
            });
      // The webhook client is loaded by the first test delivery an operator asks for, not at start.
      const webhookTester = async (partnerId: string) => {
        const [{ deliveryDepsFromConfig }, { webhookTester: tester }] = await Promise.all([
          import('../../sync/delivery/delivery-deps.ts'),
          import('../../sync/test-event.ts'),
        ]);
        return tester(store.db, deliveryDepsFromConfig(config, { clock, wallClock: deps.clock }))(partnerId);
      };
      const app = createApp({ db: store.db, config, clock, logger, metrics: metrics?.http, webhookTester, spans: deps.tracing?.spans });
      const tls = config.tlsCert && config.tlsKey ? { certFile: config.tlsCert, keyFile: config.tlsKey } : undefined;
      let running;
      try {
        running = await listen(app.callback(), {
          host: config.host,
          port: config.port,
          tls,
          // Requests Node refuses before the app sees them get a log line under their request id too.
          onClientError: (a) => logger.info({ reqId: a.requestId, status: a.status, reason: a.reason }, 'request'),
        });
      } catch (err) {
        await store.close();
        throw err;
      }
      let metricsListener: MetricsListener | undefined;
      if (metrics && config.metricsPort !== undefined) {
        try {
          metricsListener = await (
            await import('../../http/metrics/listener.ts')
          ).listenMetrics(metrics, config.metricsHost, config.metricsPort);
        } catch (err) {
          await running.stop(0);
          await store.close();
          throw err;
        }
        logger.info({ url: metricsListener.url }, 'metrics listening');
      }
      if (!tls && !config.trustProxy && !isLoopbackHost(config.host)) {
        logger.warn(
          'serving plain HTTP on a non-loopback address: API keys travel in clear; use --tls-cert/--tls-key, or --trust-proxy behind a TLS proxy',
        );
      }
      logger.info({ url: running.url, store: store.displayUrl, tls: Boolean(tls), trustProxy: config.trustProxy }, 'listening');

      await new Promise<void>((resolve) => {
        const stop = async () => {
          logger.info({ graceMs: config.shutdownGraceMs }, 'shutting down: finishing in-flight requests');
          await running.stop(config.shutdownGraceMs);
          await metricsListener?.close();
          // Audit rows still queued are written before the store closes (retried up to the grace period).
          const unwritten = await app.close(config.shutdownGraceMs);
          if (unwritten > 0) logger.error({ unwritten }, 'audit rows could not be written before shutdown');
          await store.close();
          logger.info('stopped');
          resolve();
        };
        if (deps.onShutdown) {
          deps.onShutdown(stop);
          return;
        }
        // A second signal during shutdown gets the default behaviour (exit at once).
        const onSignal = () => {
          process.off('SIGTERM', onSignal);
          process.off('SIGINT', onSignal);
          void stop();
        };
        process.once('SIGTERM', onSignal);
        process.once('SIGINT', onSignal);
      });
    });
}
