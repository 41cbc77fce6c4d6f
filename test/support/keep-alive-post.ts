/** One JSON-RPC POST on a keep-alive agent, as a real HTTP client sends it; never rejects. */
import http from 'node:http';

export interface Posted {
  status: number;
  text: string;
  /** The socket it went on: the same one for requests that kept the connection alive. */
  socket: unknown;
  error?: string;
}

export function post(agent: http.Agent, port: number, body: string): Promise<Posted> {
  return new Promise<Posted>((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, socket: req.socket }));
        res.on('error', (e) => resolve({ status: res.statusCode ?? 0, text, socket: req.socket, error: String(e) }));
      },
    );
    req.on('error', (e) => resolve({ status: 0, text: '', socket: req.socket, error: String(e) }));
    req.end(body);
  });
}
