/**
 * The ArrayBuffers behind buffer columns — what a typed batch moves between threads (encode and partition-split
 * workers). Plain JS module: worker files import it without loading Arrow.
 */

/** adds the distinct ArrayBuffers behind `columns` to `out` */
export function addColumnBuffers(columns, out) {
  for (const c of columns) {
    if (c.validity !== null) out.add(c.validity.buffer);
    switch (c.kind) {
      case 'int32': case 'int64': out.add(c.values.buffer); break;
      case 'decimal': out.add(c.words.buffer); break;
      case 'utf8': out.add(c.offsets.buffer); out.add(c.data.buffer); break;
    }
  }
}
