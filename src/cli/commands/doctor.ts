// `mcpwire doctor`: loads the config (syntax, schema, secrets, paths),
// starts every enabled server and lists what is wrong; warns of host
// variables that look like secrets and that every stdio server would
// inherit through the env merge. Its exit status is the first problem's,
// from the one table: 3 for the config, 4 for a server that will not start.

import { McpClientError } from '../../errors.js';
import { secretLookingVariables } from '../../toolsource/environment.js';
import { unusedDenyPatterns } from '../../toolsource/pins/deny-check.js';
import type { ServerStatus } from '../../toolsource/supervisor.js';
import { errorText } from '../../util/text.js';
import { exitCodeOf } from '../exit-codes.js';
import { parseCommandLine } from '../options.js';
import { out } from '../process.js';
import { protocolOfStatus, protocolText, statusWithEra, type Protocol } from '../protocol.js';
import { failureOf, failureStatus, withSession } from '../session.js';

export async function doctor(args: string[]): Promise<number> {
  const line = parseCommandLine('doctor', args);
  const problems: string[] = [];
  const warnings: string[] = [];
  let statuses: ServerStatus[] = [];
  let started: (key: string) => Protocol | undefined = () => undefined;
  let status = 0;
  try {
    status = await withSession('doctor', line, async (session) => {
      const failed = await session.start();
      statuses = session.source.status();
      started = session.protocol;
      for (const s of failed) problems.push(`${s.key}: ${failureOf(s)}`);
      const stdio = session.source.config.servers.filter((s) => s.params.transport === 'stdio' && !s.disabled).map((s) => s.key);
      const exposed = secretLookingVariables(process.env);
      if (stdio.length > 0 && exposed.length > 0) {
        warnings.push(`the host's ${exposed.join(', ')} would be passed to every stdio server (${stdio.join(', ')}) by the env merge; unset them, or embed mcpwire with serverEnvironment: 'safe'`);
      }
      // A deny rule that matches none of the listed tools is most often a typo, and a typo looks like a rule that works (SPEC G2).
      for (const server of session.source.config.servers) {
        if (server.disabled || server.tools.deny.length === 0 || failed.some((s) => s.key === server.key)) continue;
        const listed = await session.source.withServer(server.key, async (client) => (await client.listTools(session.requestOptions())).tools).catch(() => undefined);
        if (listed === undefined) continue;
        for (const pattern of unusedDenyPatterns(server.tools, listed.map((t) => t.name))) {
          warnings.push(`${server.key}: the deny rule ${JSON.stringify(pattern)} matches none of its ${listed.length} tools (${listed.slice(0, 5).map((t) => t.name).join(', ')}${listed.length > 5 ? ', …' : ''}); check its spelling`);
        }
      }
      // SPEC G2: what "pin": "block" holds back is a finding, not a failure: the server works, some of its tools wait for approval.
      for (const server of session.source.config.servers) {
        const drift = session.source.pinDrift(server.key);
        if (drift !== undefined && drift.withheld.length > 0) {
          warnings.push(`${server.key}: ${drift.withheld.length} tool${drift.withheld.length === 1 ? '' : 's'} withheld by "pin": "block" (${drift.withheld.slice(0, 5).join(', ')}${drift.withheld.length > 5 ? ', …' : ''}); mcpwire pin --diff shows what changed, mcpwire trust ${server.key} approves`);
        }
      }
      return failureStatus(failed);
    });
  } catch (error) {
    // A config that does not load is the first thing doctor reports, not a crash; a usage mistake stays one.
    if (!(error instanceof McpClientError)) throw error;
    problems.push(errorText(error));
    status = exitCodeOf(error);
  }
  if (line.values.json) out(`${JSON.stringify({ ok: problems.length === 0, problems, warnings, servers: statuses.map((s) => statusWithEra(s, started(s.key))) }, null, 2)}\n`);
  else {
    for (const s of statuses) {
      const protocol = protocolOfStatus(s, started(s.key));
      const ready = s.state === 'ready' ? `, ${s.tools} tools${protocol ? `, ${protocolText(protocol)}` : ''}` : '';
      out(`${failureOf(s) === undefined ? 'ok  ' : 'FAIL'} ${s.key} (${s.state}${ready})\n`);
    }
    for (const warning of warnings) out(`warning: ${warning}\n`);
    for (const problem of problems) out(`problem: ${problem}\n`);
    out(problems.length === 0 ? 'no problems found\n' : `${problems.length} problem${problems.length === 1 ? '' : 's'}\n`);
  }
  return status;
}
