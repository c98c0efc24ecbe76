// The one rule for which configured names carry credentials, so that their
// values are masked in anything shown and scrubbed from errors (the config
// readers, `config show`, the HTTP transports; T4: "Secret values never
// appear in any log, error or diagnostic"). A name test, not a value test: a
// token looks like any string.

const SECRET_HEADER = /auth|token|key|secret|cookie|session|password|credential/i;
const SECRET_VARIABLE = /key|token|secret|password|passwd|credential|auth|cookie|session/i;

/** `Authorization`, `X-API-Key`, `Cookie`, `Mcp-Session-Id`, … */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/** `GITHUB_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`, … */
export function isSecretVariable(name: string): boolean {
  return SECRET_VARIABLE.test(name);
}
