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
import { findTool } from '../find-tool.js';
import { kestrelTools, nameScheme } from '../host-names.js';
import { failureOf, failureStatus, withSession, type Session } from '../session.js';
import { printToolView } from '../tool-view.js';
import { UsageError } from '../usage.js';

/** A description is cut to this many characters: one line per tool on a terminal. */
const DESCRIPTION_CHARS = 100;

export async function tools(args: string[]): Promise<number> {
  const line = parseCommandLine('tools', args);
  const [name, ...extra] = line.positionals;
  if (extra.length > 0) throw new UsageError('tools takes one NAME at most: a server\'s key (its tools) or a tool (its parameters and an example call)');
  return withSession('tools', line, async (session) => {
    const { source } = session;
    const keys = source.status().map((s) => s.key);
    // #18 item 4: NAME is a server's key (that server's tools) or a tool (one tool's view).
    if (name !== undefined && !keys.includes(name)) return toolView(session, name);
    if (name !== undefined && line.values.server !== undefined && line.values.server !== name) throw new UsageError(`tools ${name} and --server ${line.values.server} name two servers; give one`);
    const selected = name !== undefined ? [name] : session.selected();
    const failed = await session.start(selected);
    // One server asked for and down: its failure is the command's, reported like any command's error.
    if (selected.length === 1 && failed.length === 1) await session.startOrThrow(failed[0]!.key);
    const wanted = new Set(selected);
    const agent = line.values.agent;
    // The selected servers are started above: the agent's rules filter what they registered, starting no other.
    const list = (agent !== undefined ? await source.tools({ agent, discover: false }) : source.registered()).filter((d) => wanted.has(d.mcp_server));
    const scheme = nameScheme(session);
    // #18 item 11: as a Kestrel host's agent sees them (the bridges included); a kaged agent's rules still filter the servers' tools.
    const allowed = new Set(list.map((d) => d.name));
    const agentTools = scheme === 'kestrel' ? (await kestrelTools(session, selected)).filter((t) => t.definition === undefined || allowed.has(t.definition.name)) : [];
    if (line.values.json) {
      // Beside each definition, not around the list: `jq '.[].name'` and every other reader of the array keep working.
      const shown = scheme === 'kestrel' ? agentTools.map(({ definition: _, ...t }) => ({ ...t, ...session.protocol(t.server) })) : list.map((d) => ({ ...d, ...session.protocol(d.mcp_server) }));
      out(`${JSON.stringify(shown, null, 2)}\n`);
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
      if (scheme === 'kestrel') {
        const theirs = agentTools.filter((t) => t.server === status.key);
        out(`${status.key} (${plural(theirs.length, 'tool')}; as a Kestrel agent sees them, bridges included: name, permission, description; call by these names)\n`);
        printRows(theirs.map((t) => [signature(t.name, t.parameters), `${t.permission.padEnd(4)}  ${firstLine(t.description, DESCRIPTION_CHARS)}`]));
        continue;
      }
      const how = scheme === 'kaged' ? 'names as a kaged agent sees them' : scheme === 'raw' ? 'the server\'s own names' : several ? `call as mcp.${status.key}.<tool>` : 'call by the tool\'s name';
      out(`${status.key} (${plural(mine.length, 'tool')}; ${how})\n`);
      printRows(mine.map((tool) => [signature(scheme === 'kaged' ? tool.name : tool.mcp_tool_name, tool.parameters), tool.description ? firstLine(tool.description, DESCRIPTION_CHARS) : '']));
      if (line.values.verbose) for (const tool of mine) out(`    ${tool.name}  alias ${tool.alias}\n`);
    }
    return failureStatus(failed);
  });
}

/** One tool: its definition with --json, else its description, parameters and an example call. Unknown: UnknownToolError (exit 3). */
async function toolView(session: Session, name: string): Promise<number> {
  const { tool, agent } = await findTool(session, [name]);
  const { values, serverCommand } = session.line;
  if (values.json) {
    const shown = agent !== undefined ? (({ definition: _, ...t }) => t)(agent) : tool;
    out(`${JSON.stringify({ ...shown, ...session.protocol(tool.mcp_server) }, null, 2)}\n`);
    return 0;
  }
  if (agent !== undefined) out(`${agent.name}: as a Kestrel agent sees it, permission ${agent.permission}${agent.bridge ? `, a bridge to the server's ${agent.bridge.endsWith('resource') || agent.bridge.endsWith('resources') ? 'resources' : 'prompts'}` : ''}\n  ${agent.description.split('\n')[0]}\n\n`);
  const several = session.source.status().length > 1;
  // How this command line reaches the servers, so the example runs as printed (headers and -e left out: they may be secrets).
  const target = values.config !== undefined ? ['--config', values.config] : values.url !== undefined ? ['--url', values.url, ...(values.transport ? ['--transport', values.transport] : [])] : serverCommand.length > 0 ? ['--', ...serverCommand] : [];
  printToolView(tool, agent !== undefined ? agent.name : several ? `${tool.mcp_server}.${tool.mcp_tool_name}` : tool.mcp_tool_name, target);
  return 0;
}
