/**
 * Starts the Express example: `npm run example:express` (PORT defaults to 3000).
 *
 * Tokens: with `ISSUER` and `JWKS_URL` set (and `RESOURCE`, the endpoint's public URL, when a proxy is in
 * front), JWTs from that authorization server are verified against its keys. Without them a local
 * development issuer signs two tokens at startup and prints them: one with `notes:write`, one without.
 */
import { createRemoteJWKSet } from 'jose';
import { devIssuer, jwtVerifier } from '../shared/jwt.js';
import { createApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const resource = process.env.RESOURCE ?? `http://127.0.0.1:${port}/mcp`;
const { ISSUER, JWKS_URL } = process.env;

const dev = ISSUER && JWKS_URL ? undefined : await devIssuer(`http://127.0.0.1:${port}/dev-issuer`, resource);
const issuer = dev?.issuer ?? (ISSUER as string);
const jwks = dev?.jwks ?? createRemoteJWKSet(new URL(JWKS_URL as string));
const app = createApp({ verify: jwtVerifier({ jwks, issuer, audience: resource }), resource, issuer });

const server = app.listen(port, '127.0.0.1', async () => {
  const address = server.address();
  console.log(`MCP endpoint: http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/mcp`);
  if (!dev) return console.log(`Verifying tokens from ${issuer} for ${resource}`);
  console.log('Development tokens (local issuer, valid 1 hour; send as Authorization: Bearer <token>):');
  console.log(`  notes:write: ${await dev.sign({ sub: 'dev-writer', scope: 'notes:write' })}`);
  console.log(`  no scope:    ${await dev.sign({ sub: 'dev-reader' })}`);
});
