// `mcpwire completion bash|zsh|fish` (#18 item 15): a completion script for
// the shell. Commands and flags are written into the script; server names
// and tool names are asked for as a word is completed, through
// `mcpwire completion __list servers|tools [CONFIG FLAGS]`: the servers from
// the config (or its running session), the tools only from a running session
// (starting servers on a Tab press would take seconds).

import { EXIT } from '../exit-codes.js';
import { OPTION_NAMES } from '../options.js';
import { out } from '../process.js';
import sessionClient from '../session-client.cjs';
import { commandHelp, commandNames, HelpShown, UsageError } from '../usage.js';

const { ask, configArgs, identityOf, runtimeDir, socketPath } = sessionClient;

/** Flags of one command beyond the shared ones. */
const OWN_FLAGS: Record<string, string[]> = {
  session: ['idle', 'all'],
  bench: ['quick', 'only'],
  pin: ['check', 'diff', 'user'],
  trust: ['user'],
  record: ['out', 'ops', 'proxy', 'listen', 'description', 'elicit', 'replace', 'replace-pattern'],
};

/** Flags followed by a value: the word after one is not a command's word. */
const VALUE_FLAGS = ['--config', '--project-local', '--local', '--daemon-config', '--agent', '--server', '--url', '--transport', '--header', '-e', '--env', '--cwd', '--name', '--timeout', '--era', '--idle', '--only', '--out', '--ops', '--listen', '--description', '--elicit', '--replace', '--replace-pattern'];

const SESSION_ACTIONS = ['start', 'stop', 'status'];
const SHELLS = ['bash', 'zsh', 'fish'];

export async function completion(args: string[]): Promise<number> {
  const [what, ...rest] = args;
  if (what === '__list') return list(rest);
  if (what === '--help' || what === '-h') {
    out(commandHelp('completion'));
    throw new HelpShown();
  }
  const commands = commandNames().filter((c) => c !== 'conformance-client');
  const flags = [...OPTION_NAMES, ...new Set(Object.values(OWN_FLAGS).flat())].map((f) => `--${f}`);
  switch (what) {
    case 'bash':
      out(bash(commands, flags));
      return EXIT.ok;
    case 'zsh':
      out(zsh(commands, flags));
      return EXIT.ok;
    case 'fish':
      out(fish(commands));
      return EXIT.ok;
    default:
      throw new UsageError(what === undefined ? 'mcpwire completion bash|zsh|fish: name the shell' : `no completion for "${what}": bash, zsh or fish`);
  }
}

/** Names for a word being completed, one a line; nothing (and status 0) when there are none to give. */
async function list(args: string[]): Promise<number> {
  const [kind, ...rest] = args;
  const flags = configArgs(rest);
  const identity = identityOf(flags, process.cwd());
  const dir = runtimeDir(false);
  let names: string[] = [];
  if (identity !== undefined && dir !== undefined) {
    const answer = await ask(socketPath(dir, identity), { op: 'tools' }).catch(() => undefined);
    if (answer !== undefined) names = ((kind === 'tools' ? answer.tools : answer.servers) as string[] | undefined) ?? [];
  }
  if (kind === 'servers' && names.length === 0) {
    // No session: the config's keys, read (not started), wherever the command would find it.
    try {
      const [{ parseCommandLine }, { resolveConfig }] = await Promise.all([import('../options.js'), import('../target.js')]);
      names = (await resolveConfig('completion', parseCommandLine('completion', flags))).servers.map((s) => s.key);
    } catch {
      // A config that does not load completes nothing.
    }
  }
  for (const name of names) out(`${name}\n`);
  return EXIT.ok;
}

function bash(commands: string[], flags: string[]): string {
  return `# mcpwire completion for bash: source <(mcpwire completion bash)
_mcpwire() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmd="\${COMP_WORDS[1]}"
  local bin="\${COMP_WORDS[0]}" i cfg=() words=()
  if [[ \$COMP_CWORD -eq 1 ]]; then
    COMPREPLY=( \$(compgen -W "${commands.join(' ')}" -- "\$cur") )
    return
  fi
  # The config flags already typed choose the servers and tools offered.
  for (( i = 2; i < COMP_CWORD; i++ )); do
    case "\${COMP_WORDS[i]}" in
      --) return ;;
      --config|--project-local|--local|--daemon-config) cfg+=( "\${COMP_WORDS[i]}" "\${COMP_WORDS[i+1]}" ) ;;
      -*) ;;
      *) case "\${COMP_WORDS[i-1]}" in
           ${VALUE_FLAGS.join('|')}) ;;
           *) words+=( "\${COMP_WORDS[i]}" ) ;;
         esac ;;
    esac
  done
  case "\$prev" in
    --server) COMPREPLY=( \$(compgen -W "\$("\$bin" completion __list servers "\${cfg[@]}" 2>/dev/null)" -- "\$cur") ); return ;;
    --config|--project-local|--local|--daemon-config|--cwd|--out|--ops) COMPREPLY=( \$(compgen -f -- "\$cur") ); return ;;
    --transport) COMPREPLY=( \$(compgen -W "http sse" -- "\$cur") ); return ;;
    --era) COMPREPLY=( \$(compgen -W "auto legacy modern" -- "\$cur") ); return ;;
    --url|--header|-e|--env|--name|--timeout|--idle|--agent|--only) return ;;
  esac
  if [[ "\$cur" == -* ]]; then
    COMPREPLY=( \$(compgen -W "${flags.join(' ')}" -- "\$cur") )
    return
  fi
  case "\$cmd" in
    call) [[ \${#words[@]} -eq 0 ]] && COMPREPLY=( \$(compgen -W "\$("\$bin" completion __list tools "\${cfg[@]}" 2>/dev/null)" -- "\$cur") ) ;;
    session) [[ \${#words[@]} -eq 0 ]] && COMPREPLY=( \$(compgen -W "${SESSION_ACTIONS.join(' ')}" -- "\$cur") ) ;;
    completion) [[ \${#words[@]} -eq 0 ]] && COMPREPLY=( \$(compgen -W "${SHELLS.join(' ')}" -- "\$cur") ) ;;
    help) [[ \${#words[@]} -eq 0 ]] && COMPREPLY=( \$(compgen -W "${commands.join(' ')}" -- "\$cur") ) ;;
    config) [[ \${#words[@]} -eq 0 ]] && COMPREPLY=( \$(compgen -W "sources show" -- "\$cur") ) ;;
    conformance|read) COMPREPLY=( \$(compgen -f -- "\$cur") ) ;;
  esac
}
complete -F _mcpwire mcpwire
`;
}

function zsh(commands: string[], flags: string[]): string {
  return `#compdef mcpwire
# mcpwire completion for zsh: source <(mcpwire completion zsh) after compinit
_mcpwire() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cmd="\${words[2]}" i
  local -a cfg
  if (( CURRENT == 2 )); then
    compadd -- ${commands.join(' ')}
    return
  fi
  for (( i = 3; i < CURRENT; i++ )); do
    case "\${words[i]}" in
      --) return ;;
      --config|--project-local|--local|--daemon-config) cfg+=( "\${words[i]}" "\${words[i+1]}" ) ;;
    esac
  done
  case "\$prev" in
    --server) compadd -- \${(f)"\$(\${words[1]} completion __list servers \$cfg 2>/dev/null)"}; return ;;
    --config|--project-local|--local|--daemon-config|--cwd|--out|--ops) _files; return ;;
    --transport) compadd -- http sse; return ;;
    --era) compadd -- auto legacy modern; return ;;
    --url|--header|-e|--env|--name|--timeout|--idle|--agent|--only) return ;;
  esac
  if [[ "\$cur" == -* ]]; then
    compadd -- ${flags.join(' ')}
    return
  fi
  case "\$cmd" in
    call) (( CURRENT == 3 )) && compadd -- \${(f)"\$(\${words[1]} completion __list tools \$cfg 2>/dev/null)"} ;;
    session) (( CURRENT == 3 )) && compadd -- ${SESSION_ACTIONS.join(' ')} ;;
    completion) (( CURRENT == 3 )) && compadd -- ${SHELLS.join(' ')} ;;
    help) (( CURRENT == 3 )) && compadd -- ${commands.join(' ')} ;;
    config) (( CURRENT == 3 )) && compadd -- sources show ;;
    conformance|read) _files ;;
  esac
}
if (( \${+functions[compdef]} )); then compdef _mcpwire mcpwire; fi
`;
}

function fish(commands: string[]): string {
  const lines = [
    '# mcpwire completion for fish: mcpwire completion fish > ~/.config/fish/completions/mcpwire.fish',
    'complete -c mcpwire -f',
    `complete -c mcpwire -n __fish_use_subcommand -a '${commands.join(' ')}'`,
    ...OPTION_NAMES.map((f) => `complete -c mcpwire -l ${f}${['config', 'project-local', 'local', 'daemon-config', 'cwd'].includes(f) ? ' -r -F' : ['server', 'url', 'transport', 'header', 'env', 'name', 'timeout', 'era', 'agent'].includes(f) ? ' -r' : ''}`),
    ...Object.entries(OWN_FLAGS).flatMap(([command, own]) => own.map((f) => `complete -c mcpwire -n '__fish_seen_subcommand_from ${command}' -l ${f}`)),
    "complete -c mcpwire -n '__fish_seen_subcommand_from call; and test (count (commandline -opc)) -eq 2' -a '(mcpwire completion __list tools)'",
    "complete -c mcpwire -l server -r -a '(mcpwire completion __list servers)'",
    "complete -c mcpwire -l transport -r -a 'http sse'",
    "complete -c mcpwire -l era -r -a 'auto legacy modern'",
    `complete -c mcpwire -n '__fish_seen_subcommand_from session' -a '${SESSION_ACTIONS.join(' ')}'`,
    `complete -c mcpwire -n '__fish_seen_subcommand_from completion' -a '${SHELLS.join(' ')}'`,
    "complete -c mcpwire -n '__fish_seen_subcommand_from config' -a 'sources show'",
  ];
  return `${lines.join('\n')}\n`;
}
