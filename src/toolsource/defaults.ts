// The tool source's documented defaults, in a module of their own so the
// package entry can export them without loading the tool source.

/** The deadline for one server's start (spawn or connect, initialize, tools/list) when neither its config nor the host sets one. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
