// The options every server command shares, parsed once: node:util parseArgs
// for what comes before `--`, and the words after it kept whole as the
// command of an ad-hoc stdio server (its own flags must not be read as ours).

import { parseArgs } from 'node:util';
import type { ProtocolEra } from '../client/era.js';
import { parseProtocolEra } from '../toolsource/config/era.js';
import { describeArgError } from './arg-errors.js';
import { commandHelp, HelpShown, UsageError } from './usage.js';

const OPTIONS = {
  config: { type: 'string' },
  'project-local': { type: 'string' },
  local: { type: 'string' },
  'daemon-config': { type: 'string' },
  agent: { type: 'string' },
  server: { type: 'string' },
  url: { type: 'string' },
  transport: { type: 'string' },
  header: { type: 'string', multiple: true, default: [] as string[] },
  cert: { type: 'string' },
  key: { type: 'string' },
  ca: { type: 'string' },
  env: { type: 'string', short: 'e', multiple: true, default: [] as string[] },
  cwd: { type: 'string' },
  name: { type: 'string' },
  json: { type: 'boolean', default: false },
  timeout: { type: 'string' },
  era: { type: 'string' },
  names: { type: 'string' },
  verbose: { type: 'boolean', short: 'v', default: false },
  progress: { type: 'boolean', default: false },
  save: { type: 'string' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The long flags every server command takes, for completion scripts. */
export const OPTION_NAMES: readonly string[] = Object.keys(OPTIONS);

export interface CommandLine {
  values: ReturnType<typeof parseOwn>['values'];
  positionals: string[];
  /** The words after `--`: an ad-hoc stdio server's command; empty when there was no `--`. */
  serverCommand: string[];
  /** --timeout, checked. */
  timeoutMs: number | undefined;
  /** --era, checked: every server's protocol era for this command, over what the config says (#17). */
  protocolEra: ProtocolEra | undefined;
}

function parseOwn(args: string[]) {
  return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
}

/** Parses a command's arguments; on --help prints that command's help and throws HelpShown. */
export function parseCommandLine(command: string, args: string[]): CommandLine {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  const serverCommand = split === -1 ? [] : args.slice(split + 1);
  let parsed;
  try {
    parsed = parseOwn(own);
  } catch (error) {
    throw new UsageError(describeArgError(error, OPTIONS, command) ?? `${(error as Error).message}; see mcpwire ${command} --help`);
  }
  if (parsed.values.help) {
    process.stdout.write(commandHelp(command));
    throw new HelpShown();
  }
  for (const flag of ['progress', 'save', 'output'] as const) {
    if (parsed.values[flag] !== undefined && parsed.values[flag] !== false && command !== 'call') throw new UsageError(`--${flag} is an option of mcpwire call, not of mcpwire ${command}`);
  }
  if (parsed.values.save === '' || parsed.values.output === '') throw new UsageError(`--${parsed.values.save === '' ? 'save' : 'output'} needs a path`);
  if (parsed.values.names !== undefined && command !== 'tools') throw new UsageError(`--names is an option of mcpwire tools, not of mcpwire ${command} (call takes every form of a name)`);
  if (split !== -1 && serverCommand.length === 0) throw new UsageError('nothing after --: give the server\'s command, e.g. mcpwire tools -- npx -y @modelcontextprotocol/server-everything');
  return { values: parsed.values, positionals: parsed.positionals, serverCommand, timeoutMs: timeoutOption(parsed.values.timeout), protocolEra: eraOption(parsed.values.era) };
}

export function timeoutOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms <= 0) throw new UsageError(`--timeout takes a whole number of milliseconds, got "${text}"`);
  return ms;
}

export function eraOption(text: string | undefined): ProtocolEra | undefined {
  if (text === undefined) return undefined;
  const parsed = parseProtocolEra(text);
  if (!parsed.ok) throw new UsageError(`--era: ${parsed.detail}`);
  return parsed.era;
}
