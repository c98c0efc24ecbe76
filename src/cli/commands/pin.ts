// `mcpwire pin` and `mcpwire trust` (SPEC G2, issue #21 item 2): record the
// tool definitions the config's servers list now, compare them with what was
// recorded (--check for CI: exit 9 on drift; --diff to read it, with the same exit code), and approve
// a server's or one tool's current definition. The pins go to the file the
// tool source reads (pinFileFor: the project's .mcpwire/pins.json, or the
// user's with --user), so what the CLI approves is what a host enforces.

import path from 'node:path';
import type { Tool } from '../../client/results.js';
import { canonicalName } from '../../toolsource/naming.js';
import { fingerprintSet, fingerprintTool, coveredDefinition } from '../../toolsource/pins/canonical.js';
import { approve, describeDrift, DEFAULT_PIN_POLICY, reviewTools, type ToolDrift } from '../../toolsource/pins/review.js';
import { FilePinStore, pinFileFor } from '../../toolsource/pins/store.js';
import { compileFilter } from '../../toolsource/registry.js';
import { unknownToolError } from '../../toolsource/unknown-tool.js';
import { EXIT } from '../exit-codes.js';
import { parseCommandLine } from '../options.js';
import { err, out } from '../process.js';
import { failureOf, failureStatus, withSession, type Session } from '../session.js';
import { UsageError } from '../usage.js';

/** This command's own flags, taken out before the shared parser sees the rest (it refuses what it does not know). */
function ownFlags(args: string[], names: readonly string[]): { flags: Set<string>; rest: string[] } {
  const split = args.indexOf('--');
  const head = split === -1 ? args : args.slice(0, split);
  const tail = split === -1 ? [] : args.slice(split);
  const flags = new Set<string>();
  const rest = head.filter((arg) => {
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name === undefined || !names.includes(name)) return true;
    flags.add(name);
    return false;
  });
  return { flags, rest: [...rest, ...tail] };
}

/** The pin file for the command's config; a server given on the command line has no config to pin beside. */
function storeFor(session: Session, user: boolean): FilePinStore {
  const file = session.source.config.file;
  if (!path.isAbsolute(file)) throw new UsageError('pinning needs a config file (--config FILE, $MCPWIRE_CONFIG or ./mcpwire.json): the pins are kept beside it; a server given by -- or --url has none');
  return new FilePinStore(pinFileFor(file, { prefer: user ? 'user' : 'project' }));
}

/** One server's tools as it lists them now, with its allow/deny filter. */
async function listed(session: Session, key: string): Promise<{ tools: Tool[]; accepts: (name: string) => boolean }> {
  const server = session.source.config.servers.find((s) => s.key === key)!;
  const tools = await session.source.withServer(key, async (client) => (await client.listTools(session.requestOptions())).tools);
  return { tools, accepts: compileFilter(server.tools).accepts };
}

interface ServerReport {
  server: string;
  policy: string;
  tools: number;
  set?: string;
  drift?: ToolDrift;
}

export async function pin(args: string[]): Promise<number> {
  const { flags, rest } = ownFlags(args, ['check', 'diff', 'user']);
  if (flags.has('check') && flags.has('diff')) throw new UsageError('give --check or --diff, not both (--check exits 9 on drift; --diff shows it)');
  const line = parseCommandLine('pin', rest);
  if (line.positionals.length > 0) throw new UsageError(`pin takes no arguments (got "${line.positionals[0]}"); --server KEY pins one server`);
  const mode = flags.has('check') ? 'check' : flags.has('diff') ? 'diff' : 'record';
  return withSession('pin', line, async (session) => {
    const store = storeFor(session, flags.has('user'));
    const failed = await session.start();
    const down = new Set(failed.map((s) => s.key));
    const reports: ServerReport[] = [];
    for (const key of session.selected()) {
      const server = session.source.config.servers.find((s) => s.key === key)!;
      const policy = server.pin ?? DEFAULT_PIN_POLICY;
      if (server.disabled || down.has(key)) continue;
      if (policy === 'off' && mode !== 'record') {
        reports.push({ server: key, policy, tools: 0 });
        continue;
      }
      const { tools, accepts } = await listed(session, key);
      if (mode === 'record') {
        const record = approve(undefined, tools, { accepts });
        store.set(key, record);
        reports.push({ server: key, policy, tools: Object.keys(record.tools).length, set: fingerprintSet(record.tools) });
      } else {
        // Compared as under block: --check is the gate, whatever the host's policy does with what it finds.
        const drift = reviewTools(key, tools, store.get(key), 'block', accepts).drift;
        reports.push({ server: key, policy, tools: tools.filter((t) => accepts(t.name)).length, ...(drift ? { drift: { ...drift, policy: policy === 'block' ? 'block' : 'warn', withheld: policy === 'block' ? drift.withheld : [] } } : {}) });
      }
    }
    const drifted = reports.filter((r) => r.drift !== undefined);
    if (line.values.json) out(`${JSON.stringify({ file: store.file, mode, servers: reports, failed: failed.map((s) => ({ server: s.key, error: failureOf(s) })) }, null, 2)}\n`);
    else {
      for (const r of reports) {
        if (mode === 'record') out(`pinned ${r.server}: ${r.tools} tool${r.tools === 1 ? '' : 's'} (${r.set})\n`);
        else if (r.policy === 'off') out(`${r.server}: pin is off; not compared\n`);
        else if (r.drift === undefined) out(`ok   ${r.server}: ${r.tools} tool${r.tools === 1 ? '' : 's'} as pinned\n`);
        else if (mode === 'check') out(`DRIFT ${r.server}: ${summary(r.drift)}\n`);
        else for (const text of describeDrift(r.drift)) out(`${text}\n`);
      }
      if (mode === 'record') out(`written to ${store.file}\n`);
      else if (drifted.length > 0) out(`${drifted.length} server${drifted.length === 1 ? '' : 's'} drifted from ${store.file}; ${mode === 'check' ? 'mcpwire pin --diff shows how; ' : ''}approve with mcpwire trust SERVER [TOOL], or mcpwire pin to record all\n`);
      for (const s of failed) err(`${s.key}: ${failureOf(s)}\n`);
    }
    if (failed.length > 0) return failureStatus(failed);
    // --diff exits like --check (9 on drift, 0 if none), so a script can branch on either without parsing the text.
    return mode !== 'record' && drifted.length > 0 ? EXIT.drift : EXIT.ok;
  });
}

function summary(drift: ToolDrift): string {
  if (drift.unpinned) return 'nothing pinned yet';
  const parts = [
    drift.changed.length > 0 ? `changed ${drift.changed.map((c) => c.tool).join(', ')}` : '',
    drift.renamed.length > 0 ? `renamed ${drift.renamed.map((r) => `${r.from} → ${r.to}`).join(', ')}` : '',
    drift.added.length > 0 ? `added ${drift.added.join(', ')}` : '',
    drift.removed.length > 0 ? `removed ${drift.removed.join(', ')}` : '',
  ];
  return parts.filter(Boolean).join('; ');
}

export async function trust(args: string[]): Promise<number> {
  const { flags, rest } = ownFlags(args, ['user']);
  const line = parseCommandLine('trust', rest);
  const [key, tool, ...extra] = line.positionals;
  if (key === undefined) throw new UsageError('trust needs the server: mcpwire trust SERVER [TOOL]');
  if (extra.length > 0) throw new UsageError('trust takes SERVER and at most one TOOL');
  if (line.values.server !== undefined && line.values.server !== key) throw new UsageError(`trust ${key} and --server ${line.values.server} name two servers; give one`);
  return withSession('trust', { ...line, values: { ...line.values, server: key } }, async (session) => {
    const store = storeFor(session, flags.has('user'));
    await session.startOrThrow(key);
    const { tools, accepts } = await listed(session, key);
    const before = store.get(key);
    if (tool !== undefined && !tools.some((t) => t.name === tool && accepts(t.name)) && !(before && Object.hasOwn(before.tools, tool))) {
      // Exit 3 like any unknown tool. The suggestions are what the server lists: a withheld tool is not registered, so the registry cannot name it.
      const listedNames = tools.filter((t) => accepts(t.name)).map((t) => t.name);
      throw unknownToolError(canonicalName(key, tool), [], { servers: [key], hint: `${key} lists ${listedNames.length > 0 ? listedNames.join(', ') : 'no tools'}` });
    }
    const drift = reviewTools(key, tools, before, 'block', accepts).drift;
    // Approved against the file as it is under the lock, not `before`: a trust run beside this one keeps its change (#21 item 2).
    store.update(key, (current) => approve(current, tools, { ...(tool !== undefined ? { only: tool } : {}), accepts }));
    const approved = tool !== undefined ? [tool] : tools.filter((t) => accepts(t.name)).map((t) => t.name);
    const fingerprints = Object.fromEntries(approved.filter((name) => tools.some((t) => t.name === name)).map((name) => [name, fingerprintTool(coveredDefinition(tools.find((t) => t.name === name)!)).fingerprint]));
    if (line.values.json) out(`${JSON.stringify({ file: store.file, server: key, trusted: fingerprints, drift: drift ?? null }, null, 2)}\n`);
    else {
      if (drift) for (const text of describeDrift(drift).filter((t) => tool === undefined || t.includes(JSON.stringify(tool)) || t.startsWith('    '))) out(`${text}\n`);
      out(`trusted ${key}${tool !== undefined ? ` ${tool}` : ` (${approved.length} tool${approved.length === 1 ? '' : 's'})`}: written to ${store.file}\n`);
    }
    return EXIT.ok;
  });
}
