/**
 * The parts of the MCP SDK and of zod that voicectl uses, from one module. The build
 * makes this module one file (dist/mcp-sdk.cjs), loaded from a code cache, because the
 * packages as published are hundreds of files that take several times a whole
 * `voicectl` start to load (docs/performance.md).
 */
export { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
export { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
export { z } from 'zod';
