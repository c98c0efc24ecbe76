// `mcpwire demo`: the example server bundled with the package, listed and
// called: something real to talk to right after installing. The only
// command that reads the bundled example config.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../../client/connect.js';
import { loadMcpServersJson } from '../../toolsource/config/mcp-servers-json.js';
import { describeDiagnostic, firstLine } from '../../util/text.js';
import { parseCommandLine } from '../options.js';
import { err, openServers, out } from '../process.js';
import { printResult } from '../render.js';
import { protocolOfClient, protocolText } from '../protocol.js';
import { signature } from '../schema.js';

const BUNDLED_CONFIG = path.join(fileURLToPath(new URL('../../..', import.meta.url)), 'examples', 'mcpwire.json');

export async function demo(args: string[]): Promise<number> {
  const { values, protocolEra } = parseCommandLine('demo', args);
  const report: unknown[] = [];
  for (const listed of loadMcpServersJson(BUNDLED_CONFIG)) {
    const server = protocolEra === undefined ? listed : { ...listed, protocolEra };
    const client = await connect(server, { onDiagnostic: (d) => values.verbose && err(`${server.name}: ${describeDiagnostic(d)}\n`) });
    openServers.add(client);
    try {
      const { tools } = await client.listTools();
      const message = 'hello from mcpwire';
      const result = tools.some((t) => t.name === 'echo') ? await client.callTool('echo', { message }) : undefined;
      if (values.json) {
        report.push({ server: server.name, ...protocolOfClient(client), tools: tools.map((t) => t.name), echo: result });
        continue;
      }
      const info = client.serverInfo!;
      const protocol = protocolOfClient(client);
      out(`server ${server.name}: ${info.name} ${info.version}${protocol ? `, ${protocolText(protocol)}` : ''}\n`);
      out(`${tools.length} tools:\n`);
      for (const tool of tools) out(`  ${signature(tool.name, tool.inputSchema)}${tool.description ? `  ${firstLine(tool.description, 100)}` : ''}\n`);
      if (result) {
        out(`\ncall echo message="${message}":\n`);
        printResult(result, values.verbose);
      }
    } finally {
      await client.close();
      openServers.delete(client);
    }
  }
  if (values.json) out(`${JSON.stringify(report, null, 2)}\n`);
  return 0;
}
