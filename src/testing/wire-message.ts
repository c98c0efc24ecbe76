// The one loose JSON-RPC message type the tests assert on: a message as it
// crossed the wire (after a JSON round trip), every member optional, so a
// test can inspect exactly what arrived, malformed or not.

export interface WireMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}
