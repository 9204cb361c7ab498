import { connect } from 'node:net';

/**
 * Sends raw bytes (HTTP that fetch would refuse to send) and reads until the server closes the
 * connection. `stall`: keep the connection open after the bytes, as a client that stops sending.
 */
export function rawExchange(url: string, bytes: string, { stall = false } = {}): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    if (stall) socket.write(bytes);
    else socket.end(bytes);
  });
}

/** A raw HTTP/1.1 response with a JSON body: status, headers (lower-case names), parsed body. */
export function parseRawResponse(text: string): { status: number; headers: Map<string, string>; body: any } {
  const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}
