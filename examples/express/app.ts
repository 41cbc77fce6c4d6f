import express from 'express';
import { type AuthOptions, defineTool, protectedResourceMetadata } from 'mcp-mount';
import { mcp } from 'mcp-mount/express';
import { z } from 'zod';
import { options, tools } from '../shared/tools.js';

/**
 * A tool only tokens with the `notes:write` scope see and call: others do not find it in `tools/list`,
 * and their call gets 403 `insufficient_scope` (401 without a token) before the handler runs.
 */
export const archiveNote = defineTool({
  name: 'archive_note',
  description: 'Archive a note. Needs the notes:write scope.',
  scopes: ['notes:write'],
  params: z.object({ id: z.string().describe('Note id, e.g. n-1') }),
  handler: ({ params }, ctx) => ({ archived: params.id, by: ctx.authInfo?.extra?.sub ?? ctx.authInfo?.clientId }),
});

export interface ExampleAuth {
  /** Verifies a bearer token (see examples/shared/jwt.ts). */
  verify: AuthOptions['verify'];
  /** This endpoint's public URL: the tokens' audience and the metadata's `resource`. */
  resource: string;
  /** The authorization server that issues the tokens. */
  issuer: string;
}

/**
 * The Express example app: the MCP endpoint at `/mcp` next to the app's own routes, with bearer auth.
 * Tokens are optional (`required: false`): without one a client gets the shared tools; a token with
 * `notes:write` also gets `archive_note`; a bad token gets 401. The protected-resource metadata that
 * a 401 points to is served at `/.well-known/oauth-protected-resource/mcp`.
 */
export function createApp(auth: ExampleAuth) {
  const app = express();
  app.get('/', (_req, res) => {
    res.type('text/plain').send('mcp-mount Express example: MCP endpoint at /mcp');
  });
  const metadata = protectedResourceMetadata({
    resource: auth.resource,
    authorizationServers: [auth.issuer],
    scopesSupported: ['notes:write'],
  });
  app.get(metadata.path, (_req, res) => {
    res.set('access-control-allow-origin', '*').json(metadata.document);
  });
  app.use(
    '/mcp',
    mcp([...tools, archiveNote], {
      ...options,
      access: { auth: { verify: auth.verify, required: false, resourceMetadataUrl: metadata.url } },
    }),
  );
  return app;
}
