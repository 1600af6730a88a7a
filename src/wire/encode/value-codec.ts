/**
 * ValueCodec: the value I/O functions wire/ needs, with exactly the signatures of
 * src/common/pgtypes/index.ts (textOut/textIn/binaryOut/binaryIn). Connections take it as a dependency so
 * the composition root passes pgtypes and protocol tests can pass a small stand-in.
 * @see https://www.postgresql.org/docs/current/protocol-overview.html#PROTOCOL-FORMAT-CODES
 */
import type { OutputSettings } from '../handler.ts';

export interface ValueCodec {
  /** value → PostgreSQL text output (typoutput) */
  textOut(oid: number, value: unknown, settings: OutputSettings): string;
  /** text → value (typinput); throws GatewayError 22P02 and friends */
  textIn(oid: number, typmod: number, text: string, settings: OutputSettings): unknown;
  /** value → binary send format (typsend) */
  binaryOut(oid: number, value: unknown): Uint8Array;
  /** binary receive format → value (typreceive) */
  binaryIn(oid: number, bytes: Uint8Array): unknown;
}

/** Loads the real codec from common/pgtypes (dynamic so wire/ tests do not depend on it). */
export async function loadPgtypesCodec(): Promise<ValueCodec> {
  const m = (await import('../../common/pgtypes/index.ts')) as unknown as ValueCodec;
  return { textOut: m.textOut, textIn: m.textIn, binaryOut: m.binaryOut, binaryIn: m.binaryIn };
}
