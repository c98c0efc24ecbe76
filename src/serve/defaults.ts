// serve's defaults that the package entry exports, in a module of their own
// so that `import 'mcpwire'` gets them without loading the HTTP server (#20
// item 2, X4).

/** A session nobody has used for this long is closed; its id then gets 404. */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
