/**
 * One server of the peer benchmark in this process: `node --import tsx bench/peers/server.ts <key> <port>`,
 * `<key>` one of servers.ts's. Prints `listening <port>` once it listens; the load generator (run.ts) reads
 * this process's CPU time from /proc/<pid>/stat.
 */
import { SERVERS } from './servers.js';

const [key, port] = process.argv.slice(2);
const server = key ? SERVERS[key] : undefined;
if (!server || !port) {
  console.error(`usage: server.ts <${Object.keys(SERVERS).join('|')}> <port>`);
  process.exit(2);
}
await server.start(Number(port));
console.log(`listening ${port}`);
