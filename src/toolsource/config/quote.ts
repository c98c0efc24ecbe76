// Quoting a piece of a config file in an error message, bounded: a key or a
// line can be megabytes long (a generated file, an attack on the log), and an
// error is read by a person, so what is quoted is cut with an ellipsis.

/** The longest quoted part of a message, in characters, before it is cut. */
export const MAX_QUOTED_CHARS = 500;

/** `text` JSON-quoted (so control characters show), cut to MAX_QUOTED_CHARS with "…" when longer. */
export function quote(text: string, max = MAX_QUOTED_CHARS): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}
