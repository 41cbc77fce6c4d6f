/**
 * The Next.js example's production server (what `next start` runs, through Next's programmatic API) in its
 * own process for the soak test: `node --expose-gc test/soak/next-server.mjs`. Needs `next build
 * examples/next` first. Reports `{ port }` over IPC once listening.
 */
import http from 'node:http';
import next from 'next';
import { reportHeapOnRequest } from './heap-reporter.mjs';

const app = next({ dev: false, dir: new URL('../../examples/next', import.meta.url).pathname });
await app.prepare();
const handle = app.getRequestHandler();
const server = http.createServer((req, res) => handle(req, res));
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
reportHeapOnRequest();
