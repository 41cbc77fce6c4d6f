export default function Home() {
  return <p>mcp-mount Next.js example: MCP endpoint at /mcp (Node.js runtime) and /edge/mcp (Edge runtime).</p>;
}
