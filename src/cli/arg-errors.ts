// mcpwire's own words for what node:util parseArgs refuses (#18 item 6).
// Its messages are written for a generic program: "place it after the end of
// options marker '--'" is wrong advice here, where what follows `--` is the
// server's command line. And a value that parseArgs quotes back may be a
// secret (`--header` with a token), so nothing of a value is ever repeated.

import { nearest } from '../util/suggest.js';

interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
}

/** The flag parseArgs names in its message ('--tiemout', '-x'), without any value that followed it. */
function flagNamed(message: string): string | undefined {
  const quoted = /'(-{1,2}[^'\s=]*)/.exec(message)?.[1];
  return quoted;
}

/**
 * A usage message for a parseArgs error, or undefined when it is not one.
 * `command` is what the user typed, for the pointer to its help.
 */
export function describeArgError(error: unknown, options: Readonly<Record<string, OptionSpec>>, command: string): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return undefined;
  const message = error instanceof Error ? error.message : '';
  const flag = flagNamed(message);
  const help = `see mcpwire ${command} --help`;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      if (!flag) return `an option mcpwire ${command} does not take; ${help}`;
      // Long names only: a one-letter flag is "contained in" almost any word and would be suggested for all of them.
      const close = nearest(flag.replace(/^-+/, ''), Object.keys(options)).map((name) => `--${name}`);
      const guess = close.length > 0 ? ` (did you mean ${close.join(' or ')}?)` : '';
      return `mcpwire ${command} has no option ${flag}${guess}; ${help}. A server's own flags go after --, with its command: mcpwire ${command} -- CMD ARGS…`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = flag?.replace(/^-+/, '');
      const spec = name === undefined ? undefined : (options[name] ?? Object.values(options).find((s) => s.short === name));
      if (spec?.type === 'boolean') return `${flag} is a switch and takes no value; ${help}`;
      return `${flag ?? 'an option'} needs a value (${flag ?? '--option'} VALUE); ${help}`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `mcpwire ${command} takes no word here; ${help}`;
    default:
      return `the options could not be read; ${help}`;
  }
}
