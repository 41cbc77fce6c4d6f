/** The Express example's auth for in-process tests: a local development issuer and its verifier. */
import type { ExampleAuth } from '../../../examples/express/app.js';
import { type DevIssuer, devIssuer, jwtVerifier } from '../../../examples/shared/jwt.js';

export async function exampleAuth(
  resource = 'http://127.0.0.1:3000/mcp',
): Promise<{ dev: DevIssuer; auth: ExampleAuth }> {
  const dev = await devIssuer('http://127.0.0.1:3000/dev-issuer', resource);
  return {
    dev,
    auth: {
      verify: jwtVerifier({ jwks: dev.jwks, issuer: dev.issuer, audience: resource }),
      resource,
      issuer: dev.issuer,
    },
  };
}
