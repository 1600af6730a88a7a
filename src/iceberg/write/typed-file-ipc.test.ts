/**
 * typedFileIpc writes the IPC stream from the writer's chunks into one buffer of its own (reused file after
 * file on an encode thread) instead of tableToIPC's join: the bytes must be tableToIPC's exactly, for batches
 * with NULLs, decimals and strings, and a second, smaller file must not carry bytes of the first.
 */
import { describe, expect, it } from 'vitest';
import { Field, Int32, Schema as ArrowSchema, Table, Utf8, tableFromIPC, tableToIPC } from 'apache-arrow';
import { Int32Builder, Utf8Builder } from './typed-column-builders.ts';
import { typedFileIpc, type TypedFileBatch } from './typed-file-ipc.mjs';

const schema = new ArrowSchema([new Field('i', new Int32(), false), new Field('s', new Utf8(), true)]);
const schemaIpc = tableToIPC(new Table(schema, []), 'stream');
const enc = new TextEncoder();

function batch(from: number, n: number): TypedFileBatch {
  const i = new Int32Builder(n, 'int');
  const s = new Utf8Builder(n);
  for (let r = from; r < from + n; r++) {
    i.append(r);
    if (r % 5 === 2) s.appendNull();
    else {
      const b = enc.encode(`v${r}é`);
      s.appendBytes(b, 0, b.length);
    }
  }
  return { length: n, columns: [i.finish(), s.finish()] as TypedFileBatch['columns'] };
}

describe('typedFileIpc', () => {
  it('gives tableToIPC\'s bytes, and a smaller second file only its own rows', () => {
    const big = typedFileIpc({ schema: schemaIpc, batches: [batch(0, 3000), batch(3000, 1000)] });
    const rows = tableFromIPC(big.ipc);
    expect(rows.numRows).toBe(4000);
    expect(Buffer.from(big.ipc).equals(Buffer.from(tableToIPC(rows, 'stream')))).toBe(true);
    expect(rows.getChild('s')!.get(8)).toBe('v8é');
    expect(rows.getChild('s')!.get(2)).toBeNull();
    const small = typedFileIpc({ schema: schemaIpc, batches: [batch(10, 20)] });
    const back = tableFromIPC(small.ipc);
    expect(back.numRows).toBe(20);
    expect(Array.from(back.getChild('i')!.toArray() as Int32Array)).toEqual(Array.from({ length: 20 }, (_, k) => 10 + k));
    expect(small.bounds).toEqual([[[10, 29], small.bounds[0]![1]]]);
  });
});
