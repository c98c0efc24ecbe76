// Facts about listen addresses, shared by the CLI's option checks and the
// servers that bind them (the recorder's HTTP proxy), and about host names.

/** A bind address meaning every interface (`0.0.0.0`, `::`, `[::]`): what binds it is reachable from the network. */
export function isWildcardAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === '' || bare === '0.0.0.0' || /^[0:]+$/.test(bare) || bare === '::ffff:0.0.0.0';
}

/** A loopback host name (`localhost`, `::1`, `127.*`): the one place plain http may go with a secret (OAuth, A1). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
