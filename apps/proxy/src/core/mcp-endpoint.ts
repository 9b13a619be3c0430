/**
 * Which request paths are the MCP endpoint. The upstream's path, give or take one trailing slash:
 * Starlette mounts the Python SDK's and FastMCP's Streamable HTTP app so that `/mcp` answers
 * 307 to `/mcp/` (python-sdk #732, #1168), and clients follow it back through the tap. The calls
 * they then make on `/mcp/` are the server's MCP traffic, not other HTTP.
 */
export function isMcpEndpoint(pathname: string, mcpPath: string): boolean {
  if (pathname === mcpPath) return true;
  return mcpPath.endsWith('/') ? pathname === mcpPath.slice(0, -1) : pathname === `${mcpPath}/`;
}
