import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does: `forward` bytes both ways; `blackhole` keeps every connection open and
 * accepts new ones but passes nothing on (a partition or a hung server: no error, no answer);
 * `reset` destroys every connection and each new one at once (the server went down).
 */
export type ProxyMode = 'forward' | 'blackhole' | 'reset';

/** A TCP proxy on 127.0.0.1 in front of `target`, whose behaviour a test switches. */
export interface TcpProxy {
  port: number;
  /** Connections open now. */
  open(): number;
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

/**
 * Starts the proxy. In `blackhole` the sockets are paused rather than closed, so what was sent
 * during the partition arrives once it is lifted, as it would over TCP.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  const pairs = new Set<Pair>();
  const flow = (p: Pair) => {
    if (mode === 'forward') {
      p.client.resume();
      p.upstream.resume();
    } else {
      p.client.pause();
      p.upstream.pause();
    }
  };
  const server = createServer((client) => {
    if (mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair: Pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
    flow(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    open: () => pairs.size,
    setMode(next) {
      mode = next;
      for (const p of [...pairs]) {
        if (mode === 'reset') {
          p.client.resetAndDestroy();
          p.upstream.destroy();
        } else {
          flow(p);
        }
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const p of pairs) {
          p.client.destroy();
          p.upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
