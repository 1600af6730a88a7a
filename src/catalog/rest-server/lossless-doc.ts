/**
 * Metadata documents and request bodies as lossless JSON: integers beyond 2^53 (snapshot ids, sequence
 * numbers) become bigint and are written back as bare JSON integers, never rounded through a double.
 */
import { isSafeNumber, parse, stringify } from 'lossless-json';
import { badRequest } from './rest-errors.ts';

function parseNumber(text: string): number | bigint {
  if (/^-?\d+$/.test(text) && !isSafeNumber(text)) return BigInt(text);
  return Number(text);
}

export function parseLosslessJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

export function parseRequestBody(text: string): unknown {
  try {
    return parseLosslessJson(text);
  } catch {
    throw badRequest('Malformed request: the body is not valid JSON');
  }
}

export function stringifyLossless(doc: unknown, indent?: number): string {
  const text = stringify(doc, null, indent);
  if (text === undefined) throw new Error('could not serialize JSON');
  return text;
}
