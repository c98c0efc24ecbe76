#!/usr/bin/env node
// A minimal MCP server over stdio, shipped with the package so that
// `mcpwire demo` has something real to talk to after `npm install mcpwire`.
// Plain JavaScript with no dependencies: newline-delimited JSON-RPC 2.0 on
// stdin/stdout, tools `echo` and `add`. It is an example, not a framework:
// no resources, prompts or server-initiated requests.

import { createInterface } from 'node:readline';

const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const TOOLS = [
  {
    name: 'echo',
    description: 'Echoes back the message it is given.',
    inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'What to echo' } }, required: ['message'] },
  },
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
];

/** A tool's own failure is a result with isError (MCP tools spec), not a JSON-RPC error. */
function toolError(text) {
  return { content: [{ type: 'text', text }], isError: true };
}

function callTool(name, args = {}) {
  switch (name) {
    case 'echo':
      if (typeof args.message !== 'string') return toolError('echo needs a string "message"');
      return { content: [{ type: 'text', text: `Echo: ${args.message}` }] };
    case 'add':
      if (typeof args.a !== 'number' || typeof args.b !== 'number') return toolError('add needs numbers "a" and "b"');
      return { content: [{ type: 'text', text: `${args.a} + ${args.b} = ${args.a + args.b}` }], structuredContent: { sum: args.a + args.b } };
    default:
      return undefined;
  }
}

/** The result for a request, or an `error` object (JSON-RPC 2.0 §5.1). */
function answer(method, params = {}) {
  switch (method) {
    case 'initialize': {
      // Lifecycle, version negotiation: echo the client's version if we support it, else offer our latest.
      const asked = params.protocolVersion;
      const protocolVersion = SUPPORTED_VERSIONS.includes(asked) ? asked : SUPPORTED_VERSIONS[0];
      return { result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'mcpwire-example', version: '1.0.0' } } };
    }
    case 'ping':
      return { result: {} };
    case 'tools/list':
      return { result: { tools: TOOLS } };
    case 'tools/call': {
      const result = callTool(params.name, params.arguments);
      return result ? { result } : { error: { code: -32602, message: `unknown tool: ${params.name}` } };
    }
    default:
      return { error: { code: -32601, message: `method not found: ${method}` } };
  }
}

function send(message) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
}

// Logs go to stderr, as MCP's stdio transport allows: stdout carries only messages.
process.stderr.write('example echo server: ready on stdio\n');
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    send({ id: null, error: { code: -32700, message: 'parse error' } });
    return;
  }
  // Notifications (no id) and responses to requests we never make need no answer.
  if (typeof message !== 'object' || message === null || message.id === undefined || typeof message.method !== 'string') return;
  send({ id: message.id, ...answer(message.method, message.params) });
});
// The client closing our stdin is how stdio shutdown begins (MCP lifecycle, stdio): leave at once.
lines.on('close', () => process.exit(0));
