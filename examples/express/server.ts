/** Starts the Express example: `npm run example:express` (PORT defaults to 3000). */
import { createApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const server = createApp().listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`MCP endpoint: http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/mcp`);
});
