/**
 * afterReads: runs a connection's delivery of the messages it just read once the event loop's poll phase has
 * read every ready socket (setImmediate's check phase), instead of right after its own read. Each connection's
 * statements then run after all of that poll's reads, so the first statement's catalog change check covers
 * the other connections' messages too (read-clock.ts): one check per event-loop turn, not one per round trip.
 * @see https://nodejs.org/en/learn/asynchronous-work/event-loop-timers-and-nexttick (poll, then check)
 */

type Delivery = () => void;

let due: Delivery[] = [];
let spare: Delivery[] = [];

/** runs `deliver` after the current poll phase's reads (in the order asked) */
export function afterReads(deliver: Delivery): void {
  if (due.length === 0) setImmediate(runDue);
  due.push(deliver);
}

function runDue(): void {
  // a delivery may ask again (it runs in a later turn): it lands in the other array
  const list = due;
  due = spare;
  spare = list;
  let i = 0;
  try {
    for (; i < list.length; i++) list[i]!();
  } finally {
    // a delivery threw (its error goes on up): the other connections' messages must not be lost with it, so
    // the deliveries after it run in the next check phase, ahead of any asked during this run
    if (i < list.length - 1) requeue(list.slice(i + 1));
    list.length = 0;
  }
}

function requeue(rest: Delivery[]): void {
  if (due.length === 0) setImmediate(runDue);
  due.unshift(...rest);
}
