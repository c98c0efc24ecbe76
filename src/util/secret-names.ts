// The one rule for which names carry credentials (#18 item 18): header
// names and variable names alike, so that their values are masked in
// anything shown and scrubbed from errors, and the host's variables that
// match are warned of (the config readers, `config show`, the HTTP
// transports, `doctor`, the recorder; T4: "Secret values never appear in
// any log, error or diagnostic"). A name test, not a value test: a token
// looks like any string. Wide on purpose: a value masked that need not be
// costs nothing, one shown that should not be is a leak.

/** A part anywhere in the name: `X-Auth-Key`, `GITHUB_TOKEN`, `DB_PASSWD`, `Mcp-Session-Id`, `Set-Cookie`, `APIKEY`. */
const SECRET_PART = /key|token|secret|passw|passphrase|credential|auth|cookie|session|bearer/i;
/** A whole word of the name (split at `_`, `-`, `.` and camelCase): `GITHUB_PAT`, `X-JWT`, `SENTRY_DSN`. */
const SECRET_WORD = new Set(['pat', 'jwt', 'dsn']);
/**
 * Names that match a part but hold no credential: the desktop's and the
 * terminal's session ids and sockets, which every program the user runs is
 * handed anyway. Warning of them would bury a real token among them.
 */
const NOT_SECRET = new Set([
  'XDG_SESSION_ID',
  'XDG_SESSION_TYPE',
  'XDG_SESSION_CLASS',
  'XDG_SESSION_DESKTOP',
  'DESKTOP_SESSION',
  'DBUS_SESSION_BUS_ADDRESS',
  'SESSION_MANAGER',
  'TERM_SESSION_ID',
  'ITERM_SESSION_ID',
  'WT_SESSION',
  'SESSIONNAME',
  'XAUTHORITY',
  'SSH_AUTH_SOCK',
]);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a header or variable named `name` holds a credential: `Authorization`, `X-Access-Key`, `OPENAI_API_KEY`, `GITHUB_PAT` … */
export function isSecretName(name: string): boolean {
  if (NOT_SECRET.has(name.toUpperCase())) return false;
  return SECRET_PART.test(name) || words(name).some((word) => SECRET_WORD.has(word));
}

/** The rule for a header name (`Authorization`, `X-API-Key`, `Cookie`, `Mcp-Session-Id`): isSecretName. */
export const isSecretHeader: (name: string) => boolean = isSecretName;

/** The rule for a variable name (`GITHUB_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`): isSecretName. */
export const isSecretVariable: (name: string) => boolean = isSecretName;
