// One header value in the 2026-07-28 encoding, apart from the Streamable HTTP
// transport that sends it: the client mirrors tool parameters as headers
// (header-params.ts) on every transport, and a stdio host must not load the
// HTTP stack for this one function (#20 item 2, X4: import-cold).

/**
 * 2026-07-28 "Value Encoding": a value that is not plain visible ASCII
 * (with inner spaces and tabs), or that looks like the sentinel itself, is
 * sent as `=?base64?{Base64 of its UTF-8}?=`.
 */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
