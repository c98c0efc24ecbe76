#!/usr/bin/env node
// A kaged-style host in a few lines: load the project's MCP servers, resolve
// the tools one agent may use, run a scripted "agent turn" that calls two of
// them by their provider-safe aliases through the agent's view (a tool the
// agent was not given is refused), count each call, and shut everything down.
//
//   node examples/kaged-host/host.mjs            (after npm ci in a clone)

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openToolSource } from 'mcpwire';

const here = path.dirname(fileURLToPath(import.meta.url));

// kaged.yaml, with project.local.yaml and local.toml beside it; servers start at first use.
const calls = [];
const source = await openToolSource({
  project: path.join(here, 'kaged.yaml'),
  startupTimeoutMs: 20_000,
  onCall: (e) => calls.push(`${e.name} ${e.error ? e.error.name : 'ok'} ${e.bytes} B over ${e.protocolVersion} (${e.era})`),
});
try {
  source.on('server-state', (s) => console.error(`  [${s.key}] ${s.state}${s.reason ? ` (${s.reason})` : ''}`));

  // What the primary agent may call, as an LLM API would be handed it; its calls go through the same view.
  const primary = source.forAgent('primary');
  const tools = await primary.tools();
  console.log(`primary may use ${tools.length} tools:`);
  for (const tool of tools) console.log(`  ${tool.alias.padEnd(36)} ${tool.name}`);

  // The "model" picks two tools; the host dispatches by alias.
  const turn = [
    ['mcp_everything_echo', { message: 'hello from the agent turn' }],
    ['mcp_files_read_text_file', { path: path.join(here, 'workspace', 'README.md') }],
  ];
  for (const [alias, args] of turn) {
    const call = await primary.call(alias, args);
    const text = call.result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
    console.log(`\n${call.name} → ${call.sizeBytes} bytes, truncated: ${call.truncated}`);
    console.log(text.length > 300 ? `${text.slice(0, 300)}…` : text);
  }

  // The "model" asks for a tool primary was not given: refused by the host, never sent to the server.
  await primary.call('mcp_everything_get-sum', { a: 1, b: 2 }).catch((e) => console.log(`\nrefused: ${e.name}: ${e.message}`));

  console.log('\ncalls:');
  for (const line of calls) console.log(`  ${line}`);

  console.log('\nservers:');
  for (const s of source.status()) console.log(`  ${s.key.padEnd(10)} ${s.state.padEnd(10)} tools ${s.tools}, calls ${s.calls}, errors ${s.errors}, ${s.stats.bytes} B, ${s.stats.truncated} truncated`);
} finally {
  await source.close(); // every server stopped, no process left behind
}
