// `config sources` and `config show` (C5): the client configs on this
// machine, and what mcpwire reads from one.

import { parseCommandLine } from '../options.js';
import { out } from '../process.js';
import { resolveConfig } from '../target.js';
import { UsageError } from '../usage.js';

export async function configCommand(args: string[]): Promise<number> {
  const line = parseCommandLine('config', args);
  const { values, positionals, protocolEra } = line;
  if (protocolEra !== undefined) throw new UsageError('--era applies to the commands that talk to servers; config only reads files (config show prints each server\'s protocol era)');
  const [what, ...extra] = positionals;
  if (extra.length > 0 || (what !== 'sources' && what !== 'show')) throw new UsageError('config takes "sources" or "show", e.g. mcpwire config show --config .vscode/mcp.json');
  if (what === 'sources') {
    const { findConfigSources } = await import('../../toolsource/config/client-locations.js');
    const sources = findConfigSources();
    if (values.json) out(`${JSON.stringify(sources, null, 2)}\n`);
    else {
      for (const s of sources) {
        const state = !s.found ? 'not found' : s.error !== undefined ? `unreadable: ${s.error}` : `${s.servers} server${s.servers === 1 ? '' : 's'}`;
        out(`${s.client.padEnd(15)} ${s.scope.padEnd(8)} ${s.path}  ${state}\n`);
      }
    }
    return 0;
  }
  // What the other commands would read: the folder's file with the user's saved servers beside it (#18 item 12).
  const config = await resolveConfig('config show', line);
  const { formatShownConfig, showConfig } = await import('../../toolsource/config/show.js');
  const shown = showConfig(config);
  out(values.json ? `${JSON.stringify(shown, null, 2)}\n` : formatShownConfig(shown));
  return 0;
}
