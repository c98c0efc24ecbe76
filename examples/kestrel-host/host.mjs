#!/usr/bin/env node
// A Kestrel-style host in a few lines: the MCP plugin connects its servers at
// startup (a server that fails is logged and the rest go on), the agent is
// offered mcp__<server>__<tool> tools with their permissions, and another
// plugin ("@acme/tickets") uses the MCP connections through the `mcp`
// service instead of importing anything of its own.
//
//   node examples/kestrel-host/host.mjs            (after npm ci in a clone)

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openKestrelMcp } from 'mcpwire';

const here = path.dirname(fileURLToPath(import.meta.url));
const logger = {
  info: (message, data) => console.error(`info  ${message}`, data ?? ''),
  warn: (message, data) => console.error(`warn  ${message}`, data ?? ''),
  error: (message, data) => console.error(`error ${message}`, data ?? ''),
};

// The plugin host starts @kestrel/plugin-mcp: every server at once, concurrently.
const mcp = await openKestrelMcp({ config: { file: path.join(here, 'kestrel.config.json') }, logger });
try {
  // What the agent sees: names, permissions, and the resource and prompt bridges.
  console.log('agent tools:');
  for (const tool of mcp.agentTools()) console.log(`  ${tool.name.padEnd(40)} ${tool.permission.padEnd(5)} ${tool.description.slice(0, 60)}`);

  // The agent calls one; the result is text for the model, structured data beside it.
  const echo = mcp.agentTools().find((tool) => tool.name === 'mcp__everything__echo');
  console.log('\nmcp__everything__echo →', await echo.execute({ message: 'hello from the agent' }));

  // Another plugin, given the `mcp` service by the plugin host.
  const tickets = {
    name: '@acme/tickets',
    async onIssue(key) {
      const result = await mcp.call('memory', 'create_entities', { entities: [{ name: key, entityType: 'ticket', observations: ['opened'] }] });
      return result.content;
    },
  };
  console.log('\nservers:', mcp.servers(), '— tools:', mcp.tools().length, '— resources:', mcp.resources().length, '— prompts:', mcp.prompts().length);
  console.log('@acme/tickets onIssue("KES-1") →', JSON.stringify(await tickets.onIssue('KES-1')).slice(0, 120));
} finally {
  await mcp.close(); // stdio children closed, HTTP sessions deleted
}
