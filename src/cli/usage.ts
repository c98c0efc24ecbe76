// Every help text of the command, in one place so that `mcpwire --help` and
// `mcpwire COMMAND --help` cannot drift apart, and the two control-flow
// errors that end a command before it does anything.

/** A mistake on the command line: printed with a pointer to the help, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError' as const;
}

/** Thrown once the help has been printed: the command ends with status 0. */
export class HelpShown extends Error {}

const SERVER_OPTIONS = `Which servers (every command that talks to servers):
  --config FILE|CLIENT      a config file: mcpServers JSON (Claude, Cursor, Windsurf), VS Code's mcp.json,
                            Codex's config.toml, a kaged project YAML, a Kestrel config; or a client's name
                            (claude, claude-code, claude-desktop, cursor, vscode, windsurf, codex)
  -- COMMAND [ARGS...]      one stdio server, no config file: mcpwire tools -- npx -y SERVER ARGS
  --url URL                 one HTTP server: Streamable HTTP, then legacy HTTP+SSE if the server refuses it
  --transport http|sse      with --url: only that transport (http = Streamable HTTP)
  --header "K: V"           with --url: a header on every request (repeatable; values never printed)
  --cert FILE --key FILE    with --url: a client certificate for mutual TLS (PEM files); an encrypted key
                            takes its passphrase from $MCPWIRE_KEY_PASSPHRASE (never printed)
  --ca FILE                 with --url: trust this CA bundle (PEM) for the server's certificate
  -e, --env K=V             with --: a variable for the server (repeatable; merged over this environment)
  --cwd DIR                 with --: the server's working folder
  --name KEY                the key of a server given by -- or --url (default: derived, see below)
  Neither: $MCPWIRE_CONFIG, else ./mcpwire.json and the user's saved servers (mcpwire add --user; the
  folder's win a shared name), else the user's alone; with none the command says so (exit 2).
  -v says which files were read.
  A server given by -- or --url is named by a key derived from it: the package or script name for a
  command (npx -y @scope/server-foo → server-foo; node dist/index.js → the folder above dist), the host
  for a URL (api.example.com → api-example-com); its tools are mcp.<key>.<tool>.
  --server KEY              with several servers: only this one
  --names kaged|kestrel|raw
                            name the tools as kaged does (mcp.<key>.<tool>), as a Kestrel agent sees them
                            (mcp__<server>__<tool>, permissions, bridges; a Kestrel config's default), or
                            as the servers do
  --era auto|legacy|modern|VERSION
                            the protocol era to speak to every server, over the config's (VERSION: a
                            revision date such as 2025-11-25 or 2026-07-28); default: the config's, else
                            the client's. The commands show the version and era each server speaks.`;

const COMMON_OPTIONS = `Output and limits (every command):
  --json                    stdout is JSON only; an error is also a JSON line {"error": {...}} on stderr
  --timeout MS              bounds the whole command, server start and handshake included (exit 5);
                            without it: 60 s for each server's start and handshake, 30 s for each request
  -v, --verbose             the wire on stderr (every message both ways, configured env and header values
                            masked), the servers' stderr, and the cause of a failure
  -h, --help                this command's help`;

export const EXIT_TABLE = `Exit status (the same for every command):
  0 ok    1 the tool reported an error, or a check or case failed    2 usage    3 config (also: unknown server or tool)
  4 closed: a server would not start, exited, hung up or was unreachable    5 timeout    6 protocol: the server broke MCP
  7 the server answered with a JSON-RPC error    8 auth: HTTP 401/403    9 drift: pin --check found tool definitions changed since pinned
  130 / 143 after SIGINT / SIGTERM (servers closed first)`;

export const USAGE = `mcpwire — an MCP client that speaks the protocol itself

Usage: mcpwire COMMAND [OPTIONS] [-- SERVER COMMAND...]

Commands:
  servers                   start every server and show its state
  tools [NAME]              list the tools (of server NAME), or show tool NAME; --json: full definitions
  call TOOL [ARGS]          call a tool: ARGS as k=v pairs, JSON, or - to read JSON from stdin
  add NAME -- CMD | --url U save a server in ./mcpwire.json (--user: the user's file); secrets as \${VAR}
  remove NAME               remove a saved server
  list                      the saved servers of ./mcpwire.json and the user's file
  import --from CLIENT      copy the servers of claude, cursor, vscode, windsurf or codex
  resources                 list the resources
  templates                 list the resource templates
  read URI                  read a resource
  prompts                   list the prompts and their arguments
  prompt NAME [k=v...]      get a prompt, rendered as [role] text
  ping                      ping every server, with the round-trip time
  doctor                    check the config, its secrets and every server
  pin [--check|--diff]      record the servers' tool definitions; --check: exit 9 if any changed, --diff: show how
  trust SERVER [TOOL]       approve a server's (or one tool's) current definitions after a change
  login SERVER              log in to an OAuth-protected HTTP server (browser, or --paste)
  logout SERVER             forget the OAuth credentials stored for a server
  auth status               the stored OAuth credentials (never their values)
  config sources|show       the MCP client configs on this machine; a config as mcpwire reads it
  conformance DIR|FILE...   replay conformance transcripts against the client
  record --out FILE.jsonl   record a session as a replayable transcript (--ops FILE, or --proxy)
  conformance-client URL    the client the official MCP conformance suite runs
  demo                      the bundled example server: list its tools, call echo
  bench                     run the benchmarks (in a clone of the repository)
  serve                     the servers' tools as one MCP server (--stdio, or --listen HOST:PORT)
  session start|stop|status keep a config's servers running in the background; commands then use them
  completion bash|zsh|fish  a shell completion script: source <(mcpwire completion bash)
  help [COMMAND]            this text, or a command's

Examples:
  mcpwire tools -- npx -y @modelcontextprotocol/server-everything
  mcpwire add every -- npx -y @modelcontextprotocol/server-everything && mcpwire call every.echo message=hi
  mcpwire call echo message=hi -- node server.js
  mcpwire call get-sum a=1 b=2 --url http://localhost:3001/mcp
  mcpwire call mcp.github.search_issues '{"query": "is:open"}' --config .cursor/mcp.json
  mcpwire tools --json --config claude | jq '.[].name'

${SERVER_OPTIONS}

${COMMON_OPTIONS}

${EXIT_TABLE}

mcpwire --version prints the version. mcpwire COMMAND --help prints a command's options and examples.
`;

const COMMANDS: Record<string, string> = {
  servers: `mcpwire servers [SERVER OPTIONS] [--json]
  Starts every configured server and shows its key, transport, state, tool count and the protocol it
  speaks (or why it failed); --json: each server's status, with protocolVersion and era.
  Exit 0 when all are up; otherwise the status of the first failure (4 for a server that will not start).
Example:
  $ mcpwire servers --config mcpwire.json
  example          stdio            ready      2 tools, pid 4242, protocol 2025-11-25 (legacy)`,
  tools: `mcpwire tools [NAME] [--server KEY] [--agent NAME] [--names kaged|kestrel|raw] [SERVER OPTIONS] [--json]
  Lists each server's tools as name(arguments) with the first line of the description, under a line
  with the protocol version and era the server speaks. An argument followed by ? is optional. --json
  prints the full definitions a host would load (canonical name, alias, input schema), each with its
  server's protocolVersion and era. --agent NAME: only the tools a kaged agent may use.
  NAME a server's key: that server's tools. NAME a tool (any name call takes): its description, each
  parameter's type, required or optional, default, allowed values and description, and an example
  mcpwire call line built from its schema; --json: its definition. Unknown NAME: exit 3, nearest names.
  A Kestrel config is listed as its agent sees it: mcp__<server>__<tool>, permission, [MCP:…]
  description, and the resource and prompt bridges (--names kaged|raw for the others' names).
  Exit 0 when every server listed its tools; otherwise the status of the first failure.
Example:
  $ mcpwire tools -- node examples/echo-server.mjs
  server echo-server: protocol 2025-11-25 (legacy)
  echo-server (2 tools; call as mcp.echo-server.<tool> or by the tool's own name)
    echo(message: string)        Echoes back the message it is given.
    add(a: number, b: number)    Adds two numbers.`,
  call: `mcpwire call TOOL [ARGS] [SERVER OPTIONS] [--json] [--progress] [--save DIR] [--output FILE]
mcpwire call SERVER TOOL [ARGS] ...
  TOOL is the tool's own name (when only one server has it), mcp.<key>.<tool>, <key>.<tool> (a saved
  server's: mcpwire call github.search_issues q=bug), a Kestrel agent's mcp__<server>__<tool> (bridges
  too), or its alias.
  ARGS:  k=v or k:v pairs, each value read as the tool's input schema types it (number, integer,
         boolean; JSON for an object or array; a string otherwise; JSON for an untyped argument);
         k=@FILE takes the value from FILE (a string parameter its text, any other the file read as
         JSON); k=@@text is the literal "@text";
         or one JSON object; or - to read a JSON object from stdin.
  Prints the result's content (text as is, other content described); the structuredContent only when
  there is no content, or with --verbose. --json: {"name", "truncated", "result"}.
  --save DIR: images, audio and blobs decoded into files in DIR (made if missing; named after the
  resource's URI or the tool, with the extension of the MIME type; never replacing a file), each
  file's name printed after its block (--json: "saved": [{"index", "file"}]).
  --output FILE (-o): what would be printed (the JSON with --json) written to FILE instead.
  A call the server runs as a task shows its status (and status message) in the status line on a
  terminal. --progress: instead, one JSON line on stderr per change, {"event": "task", "taskId",
  "status", "statusMessage"?}, and per progress report, {"event": "progress", "progress", "total"?,
  "message"?} (the call asks for progress reports).
  Exit 0; 1 when the tool reported an error (isError); 2 for arguments the schema refuses; 3 for an
  unknown tool (with the nearest names); 4-7 as in the table.
Examples:
  $ mcpwire call add a=40 b=2 -- node examples/echo-server.mjs
  40 + 2 = 42
  $ echo '{"message": "hi"}' | mcpwire call echo - --config mcpwire.json`,
  resources: `mcpwire resources [--server KEY] [SERVER OPTIONS] [--json]
  Lists the resources of every server that offers them (or of one): URI, name, MIME type.
Example:
  $ mcpwire resources -- npx -y @modelcontextprotocol/server-everything
  server-everything (7 resources)
    demo://resource/static/document/architecture.md  architecture.md  text/markdown`,
  templates: `mcpwire templates [--server KEY] [SERVER OPTIONS] [--json]
  Lists the resource templates (URI templates) of every server that offers them (or of one).
Example:
  $ mcpwire templates --url http://localhost:3001/mcp
  localhost (2 templates)
    demo://resource/dynamic/text/{resourceId}  Dynamic Text Resource`,
  read: `mcpwire read URI [--server KEY] [SERVER OPTIONS] [--json]
  Reads one resource: text as is, binary content described by MIME type and size.
  With several servers, --server says which.
Example:
  $ mcpwire read demo://resource/dynamic/text/1 -- npx -y @modelcontextprotocol/server-everything
  Resource 1: This is a plaintext resource`,
  prompts: `mcpwire prompts [--server KEY] [SERVER OPTIONS] [--json]
  Lists the prompts of every server that offers them (or of one), as name(arguments).
Example:
  $ mcpwire prompts -- npx -y @modelcontextprotocol/server-everything
  server-everything (4 prompts)
    simple-prompt()                   A prompt with no arguments
    args-prompt(city: string, state?: string)  A prompt with two arguments, one required`,
  prompt: `mcpwire prompt NAME [k=v...] [--server KEY] [SERVER OPTIONS] [--json]
  Gets one prompt with its arguments (strings) and prints its messages as [role] text.
  With several servers, --server says which.
Example:
  $ mcpwire prompt args-prompt city=Paris -- npx -y @modelcontextprotocol/server-everything
  [user] What's weather in Paris?`,
  ping: `mcpwire ping [--server KEY] [SERVER OPTIONS] [--json]
  Starts each server (or one) and pings it; prints the round-trip time.
Example:
  $ mcpwire ping -- node examples/echo-server.mjs
  echo-server  ok  1.2 ms`,
  doctor: `mcpwire doctor [SERVER OPTIONS] [--json]
  Loads the config (syntax, schema, secrets, paths), starts every enabled server, lists what is wrong,
  and warns of secret-looking variables of this environment that a stdio server would inherit.
  Exit 0 with no problems; otherwise the status of the first problem (3 config, 4 a server that will
  not start, ...).
Example:
  $ mcpwire doctor --config mcpwire.json
  ok   example (ready, 2 tools, protocol 2025-11-25 (legacy))
  no problems found`,
  pin: `mcpwire pin [--check | --diff] [--user] [--server KEY] [SERVER OPTIONS] [--json]
  Starts the config's servers and records each tool's definition (name, title, description, schemas,
  annotations, _meta) as a SHA-256 fingerprint in .mcpwire/pins.json beside the config (--user: the
  user's file). A server with "pin": "block" is then offered exactly these definitions; see README "Pinning".
  --check compares instead: exit 9 if a tool changed, is new, was renamed or vanished (for CI), 0 if not.
  --diff shows what changed: description lines as -/+, schema changes at their JSON Pointer; it exits
  like --check (9 on drift, 0 if none).
Example:
  $ mcpwire pin --check --config mcpwire.json
  DRIFT weather: changed forecast
  1 server drifted from .mcpwire/pins.json; mcpwire pin --diff shows how; approve with mcpwire trust SERVER [TOOL], or mcpwire pin to record all`,
  trust: `mcpwire trust SERVER [TOOL] [--user] [SERVER OPTIONS] [--json]
  Starts SERVER and approves what it lists now: every tool (its pins become exactly the listing), or
  one TOOL (for a rename, the old name's pin goes; for a tool no longer listed, its pin goes).
  Prints the diff it approved. A running host sees the approval at its next look at the pins.
Example:
  $ mcpwire trust weather forecast --config mcpwire.json
  trusted weather forecast: written to .mcpwire/pins.json`,
  config: `mcpwire config sources [--json]
mcpwire config show [--config FILE|CLIENT] [--json]
  sources: the MCP config files of Claude Code, Claude Desktop, Cursor, VS Code, Windsurf and Codex in
  this project and for this user, found or not, with their server counts.
  show: the config's servers as mcpwire reads them (with each one's protocol era when the config sets
  it), secret values as ***.`,
  add: `mcpwire add NAME [--user] [--force] [--era ERA] (-- COMMAND ARGS... [-e NAME[=VALUE]] [--cwd DIR]
    | --url URL [--transport http|sse] [--header "K: V"] [--header-env K=VAR] [--bearer-env VAR]
      [--cert FILE --key FILE [--key-passphrase-env VAR]] [--ca FILE])
  Saves a server under NAME in ./mcpwire.json (mcpServers JSON; --user: $MCPWIRE_USER_CONFIG, else
  $XDG_CONFIG_HOME/mcpwire/mcpwire.json, else ~/.config/mcpwire/mcpwire.json, mode 0600). The rest of
  the file is kept; the write is atomic; an existing NAME is replaced only with --force.
  Secrets are written only as \${VAR} references, resolved from the environment at start: a value under
  a credential's name (Authorization, X-Api-Key, API_KEY, ...) or shaped like a token, a credential in
  the URL, or the value of --api-key/--token in the command is refused (exit 2), never quoted.
  -e NAME saves \${NAME} (passed through); --bearer-env VAR: Authorization: Bearer \${VAR}.
  --cert/--key/--ca (mTLS) save the files' absolute paths; an encrypted key's passphrase as \${VAR}.
Examples:
  $ mcpwire add every -- npx -y @modelcontextprotocol/server-everything
  $ mcpwire add github --url https://api.githubcopilot.com/mcp/ --bearer-env GITHUB_TOKEN --user
  $ mcpwire call every.get-sum a=1 b=2`,
  remove: `mcpwire remove NAME [--user]
  Removes a saved server from ./mcpwire.json (--user: the user's file); an unknown NAME exits 3.`,
  list: `mcpwire list [--user] [--json]
  The saved servers of ./mcpwire.json and the user's file (--user: only it): name, where, transport,
  command or URL, and the names (never the values) of their env and headers.`,
  import: `mcpwire import --from claude|cursor|vscode|windsurf|codex [NAME...] [--config FILE] [--user] [--force]
  Copies a client's servers (all, or the NAMEs) from where --config CLIENT finds its file (--config FILE:
  that file) into ./mcpwire.json (--user: the user's file). A literal secret is replaced by a \${VAR}
  reference (Bearer \${SERVER_TOKEN}, \${GITHUB_TOKEN}) and the variables to set are named; the values are
  not copied. A NAME already saved is skipped unless --force.`,
  demo: `mcpwire demo [--era ERA] [--json] [--verbose]
  Connects to the example server bundled with mcpwire, lists its tools and calls echo. The only command
  that uses the bundled example config.`,
  conformance: `mcpwire conformance [--transport stdio|streamable-http|sse] DIR|FILE... [--json] [--verbose]
  Replays transcripts against the client; prints pass/FAIL per case. Exit 0 only if all pass, else 1.`,
  record: `mcpwire record --out FILE.jsonl (--ops OPS.json | --proxy [--listen HOST:PORT [--allow-host NAME] [--allow-origin ORIGIN] [--allow-wildcard]])
    (--config FILE [--server KEY] | --url URL [--transport http|sse] [--header K:V] | [-e K=V] -- CMD ARGS...)
    [--description TEXT] [--timeout MS] [--era ERA] [--elicit JSON] [--replace FROM=TO] [--replace-pattern RE=TO]
  Writes a transcript (conformance/RECORDING.md): --ops drives this client through a JSON array of ops
  and fills in what came back (--era: the era it connects with; --elicit: what its elicitation handler answers); --proxy stands between any client and the server (stdio: spawn
  mcpwire record --proxy ... -- SERVER instead of the server; --listen: Streamable HTTP), forwards
  every byte unchanged and records the wire. Secret values are redacted in the file.
  --listen forwards to the configured server only, and only requests whose Host names this machine
  (or --allow-host) and whose Origin, if any, is such a host's (or --allow-origin); binding every
  interface (0.0.0.0, [::]) needs --allow-wildcard.
  Replay it with mcpwire conformance FILE.jsonl.`,
  serve: `mcpwire serve [--stdio | --listen HOST:PORT] [--agent NAME] [--names alias|canonical|short]
    [--token-env VAR] [--require-token] [--allow-host NAME] [--allow-origin ORIGIN] [--session-idle MS] [--json]
  Serves the configured servers' tools as one MCP server, filtered as the config says (allow/deny,
  --agent: one agent's tools block), results capped, to clients of either era (2025 initialize or
  2026-07-28). Tools are named by alias (mcp_<server>_<tool>, the default), canonical name
  (mcp.<server>.<tool>) or, with --names short, the server's own name where no other server has
  it. Their resources are mcpwire:<server>:<uri>, their prompts <server>.<prompt>.
  --stdio (the default): one client on stdin/stdout, e.g. as the command of another MCP host.
  --listen: Streamable HTTP at http://HOST:PORT/mcp, and /mcp/<agent> for each agent of the config.
  Only requests whose Host names this machine (or --allow-host) and whose Origin, if any, is such a
  host's (or --allow-origin) are served. A HOST that is not loopback needs a bearer token: the value
  of the variable --token-env names, else one generated and printed once on stderr (--require-token:
  on loopback too). Sessions idle for --session-idle MS (default 10 minutes) expire.
  --json (with --listen): print {url, agents, token} on stdout once listening.
  Example: mcpwire serve --config kaged.yaml --listen 127.0.0.1:7777`,
  'conformance-client': `mcpwire conformance-client URL
  The client the official MCP conformance suite runs (the scenario from $MCP_CONFORMANCE_SCENARIO;
  from suite 0.2 also the protocol version to pin, $MCP_CONFORMANCE_PROTOCOL_VERSION, and the
  scenario's data, $MCP_CONFORMANCE_CONTEXT).`,
  bench: `mcpwire bench [--quick] [--json] [--only NAME]
  Runs the benchmarks in bench/ (in a clone of the repository only).`,
  login: `mcpwire login SERVER [--paste] [SERVER OPTIONS] [--json]
  Runs the OAuth flow for an HTTP server (a config's server, or --url): discovery, registration,
  the browser (a listener on 127.0.0.1 receives its return; --paste: print the URL and paste back
  the address the browser ended on, for a machine without one), the token exchange; then lists the
  tools to prove it. Credentials go to the user's credentials file ($MCPWIRE_CREDENTIALS, else
  ~/.config/mcpwire/credentials.json, mode 0600); later commands use them, refreshing as needed.
Example:
  $ mcpwire login docs --config mcpwire.json`,
  logout: `mcpwire logout SERVER [SERVER OPTIONS] [--json]
  Removes the OAuth credentials stored for the server's URL.`,
  auth: `mcpwire auth status [--json]
  Lists the stored OAuth credentials by server URL and issuer: whether a token is held, when it
  expires, whether it can be refreshed, its scope. Never a token's value.`,
  session: `mcpwire session start [--config FILE|CLIENT] [--idle MS] [--json]
mcpwire session stop [--config FILE|CLIENT | --all] [--json]
mcpwire session status [--config FILE|CLIENT | --all] [--json]
  start: a background process of yours starts the config's servers and keeps them running; servers,
  tools, call, resources, templates, read, prompts, prompt and ping for the same config (the same
  --config, $MCPWIRE_CONFIG or ./mcpwire.json) then run in it, without starting a server (-v says so).
  It listens on a socket only you can open ($XDG_RUNTIME_DIR/mcpwire, else mcpwire-UID in the temp
  folder; $MCPWIRE_RUNTIME_DIR overrides), reloads the config when the file changed, and stops after
  --idle MS without a command (default 900000: 15 min), on stop, or on SIGTERM, closing its servers.
  A server given by -- or --url, --era, and - (arguments from stdin) always start their own servers;
  so does every command with MCPWIRE_NO_SESSION=1 set. The servers keep the environment of start.
  stop: ends the session for the config (--all: every session). status: the session's servers and
  idle time; exit 0 when it runs, 1 when none does (with no config here: every session), 5 when a
  session holds its socket but does not answer within 5 s (stopped or stuck: stop ends it, with
  SIGKILL; a command meanwhile runs without it and says so).
Example:
  $ mcpwire session start --config mcpwire.json
  session started for /home/me/proj/mcpwire.json: pid 4242, 1 server; stops after 900 s idle
  $ mcpwire call echo message=hi -v
  mcpwire: using the session of /home/me/proj/mcpwire.json (pid 4242, up 12 s)`,
  completion: `mcpwire completion bash|zsh|fish
  Prints a completion script: commands, flags, the config's server names after --server and, while a
  session runs for the config, tool names after call.
    bash: source <(mcpwire completion bash)      (in ~/.bashrc)
    zsh:  source <(mcpwire completion zsh)       (in ~/.zshrc, after compinit)
    fish: mcpwire completion fish > ~/.config/fish/completions/mcpwire.fish`,
};

/** Every command's name, for completion scripts. */
export function commandNames(): string[] {
  return Object.keys(COMMANDS);
}

/** The help of one command, with the option blocks that apply to it. */
export function commandHelp(command: string): string {
  const own = COMMANDS[command];
  if (own === undefined) return USAGE;
  const talksToServers = !['config', 'demo', 'conformance', 'conformance-client', 'bench', 'add', 'remove', 'list', 'import', 'auth', 'session', 'completion'].includes(command);
  const sections = [own];
  if (talksToServers) sections.push(SERVER_OPTIONS, COMMON_OPTIONS, EXIT_TABLE);
  else if (command === 'demo') sections.push(COMMON_OPTIONS, EXIT_TABLE);
  return `${sections.join('\n\n')}\n`;
}

export function isCommand(name: string): boolean {
  return name in COMMANDS;
}
