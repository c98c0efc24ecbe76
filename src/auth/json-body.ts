// The bodies the OAuth flow reads (metadata, registration and token
// answers): a JSON object of a few KiB. Read bounded, so that a hostile
// server's endless body costs no more than the bound; one reader for
// discovery, registration and the token endpoint.

/** The body as text, or undefined past `maxBytes` (the rest is not read). */
export async function boundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body as a JSON object; undefined when it is larger than `maxBytes`, not JSON, or not an object. */
export async function jsonObjectBody(response: Response, maxBytes: number): Promise<Record<string, unknown> | undefined> {
  const text = await boundedText(response, maxBytes);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** An RFC 6749 §5.2 `error` code as the AS sent it, when it is one (short printable ASCII); else undefined. */
export function oauthErrorCode(json: Record<string, unknown> | undefined): string | undefined {
  return typeof json?.error === 'string' && /^[\x20-\x7e]{1,64}$/.test(json.error) ? json.error : undefined;
}
