// `mcpwire tools`: each server's tools as name(arguments) and the first line
// of the description, under a line with the protocol each server speaks;
// --json: the ToolDefinitions a host would load, each with its server's
// protocolVersion and era (#17).

import { firstLine } from '../../util/text.js';
import { parseCommandLine } from '../options.js';
import { out, err } from '../process.js';
import { protocolText } from '../protocol.js';
import { plural, printRows } from '../render.js';
import { signature } from '../schema.js';
import { failureOf, failureStatus, withSession } from '../session.js';

/** A description is cut to this many characters: one line per tool on a terminal. */
const DESCRIPTION_CHARS = 100;

export async function tools(args: string[]): Promise<number> {
  const line = parseCommandLine('tools', args);
  return withSession('tools', line, async (session) => {
    const { source } = session;
    const failed = await session.start();
    // One server asked for and down: its failure is the command's, reported like any command's error.
    if (session.selected().length === 1 && failed.length === 1) await session.startOrThrow(failed[0]!.key);
    const wanted = new Set(session.selected());
    const agent = line.values.agent;
    // The selected servers are started above: the agent's rules filter what they registered, starting no other.
    const list = (agent !== undefined ? await source.tools({ agent, discover: false }) : source.registered()).filter((d) => wanted.has(d.mcp_server));
    if (line.values.json) {
      // Beside each definition, not around the list: `jq '.[].name'` and every other reader of the array keep working.
      out(`${JSON.stringify(list.map((d) => ({ ...d, ...session.protocol(d.mcp_server) })), null, 2)}\n`);
      for (const s of failed) err(`${s.key}: ${failureOf(s)}\n`);
      return failureStatus(failed);
    }
    const several = source.status().length > 1;
    for (const status of source.status().filter((s) => wanted.has(s.key))) {
      if (status.state === 'disabled') {
        out(`${status.key} (disabled: ${status.reason})\n`);
        continue;
      }
      const failure = failureOf(status);
      if (failure !== undefined) {
        // One server's failure never hides the others' tools.
        err(`${status.key}: ${failure}\n`);
        continue;
      }
      const mine = list.filter((d) => d.mcp_server === status.key);
      const protocol = session.protocol(status.key);
      if (protocol !== undefined) out(`server ${status.key}: ${protocolText(protocol)}\n`);
      const how = several ? `call as mcp.${status.key}.<tool>` : 'call by the tool\'s name';
      out(`${status.key} (${plural(mine.length, 'tool')}; ${how})\n`);
      printRows(mine.map((tool) => [signature(tool.mcp_tool_name, tool.parameters), tool.description ? firstLine(tool.description, DESCRIPTION_CHARS) : '']));
      if (line.values.verbose) for (const tool of mine) out(`    ${tool.name}  alias ${tool.alias}\n`);
    }
    return failureStatus(failed);
  });
}
