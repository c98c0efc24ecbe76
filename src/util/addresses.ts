// Facts about listen addresses, shared by the CLI's option checks and the
// servers that bind them (the recorder's HTTP proxy).

/** A bind address meaning every interface (`0.0.0.0`, `::`, `[::]`): what binds it is reachable from the network. */
export function isWildcardAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === '' || bare === '0.0.0.0' || /^[0:]+$/.test(bare) || bare === '::ffff:0.0.0.0';
}
