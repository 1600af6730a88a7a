/**
 * The read clock: this process's socket reads, counted. A check of state other processes change (the catalog's
 * change token, engine/iceberg-tables.ts) made when readsSoFar() was n came after every read numbered <= n, so it
 * saw every commit a client had seen before it sent the bytes of those reads. The connections stamp each read
 * (noteRead) and give the session its latest stamp (HandlerSession.readMark); one check then serves every
 * message read before it — with after-reads.ts, every connection read in the same event-loop poll.
 */

let reads = 0;

/** counts one socket read and returns its number */
export function noteRead(): number {
  return ++reads;
}

/** the number of socket reads so far: a check made now came after each of them */
export function readsSoFar(): number {
  return reads;
}
