#!/usr/bin/env node
// A kaged-style host in a few lines: load the project's MCP servers, resolve
// the tools one agent may use, run a scripted "agent turn" that calls two of
// them by their provider-safe aliases, and shut everything down.
//
//   node examples/kaged-host/host.mjs            (after npm ci in a clone)

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openToolSource } from 'mcpwire';

const here = path.dirname(fileURLToPath(import.meta.url));

// kaged.yaml, with project.local.yaml and local.toml beside it; servers start at first use.
const source = await openToolSource({ project: path.join(here, 'kaged.yaml') });
try {
  source.on('server-state', (s) => console.error(`  [${s.key}] ${s.state}${s.reason ? ` (${s.reason})` : ''}`));

  // What the primary agent may call, as an LLM API would be handed it.
  const tools = await source.tools({ agent: 'primary' });
  console.log(`primary may use ${tools.length} tools:`);
  for (const tool of tools) console.log(`  ${tool.alias.padEnd(36)} ${tool.name}`);

  // The "model" picks two tools; the host dispatches by alias.
  const turn = [
    ['mcp_everything_echo', { message: 'hello from the agent turn' }],
    ['mcp_files_read_text_file', { path: path.join(here, 'workspace', 'README.md') }],
  ];
  for (const [alias, args] of turn) {
    const call = await source.call(alias, args);
    const text = call.result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
    console.log(`\n${call.name} → ${call.sizeBytes} bytes, truncated: ${call.truncated}`);
    console.log(text.length > 300 ? `${text.slice(0, 300)}…` : text);
  }

  console.log('\nservers:');
  for (const s of source.status()) console.log(`  ${s.key.padEnd(10)} ${s.state.padEnd(10)} tools ${s.tools}, calls ${s.calls}, errors ${s.errors}`);
} finally {
  await source.close(); // every server stopped, no process left behind
}
