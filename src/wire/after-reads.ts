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
/** true while runDue runs the deliveries */
let delivering = false;
/** socket writes asked for during the run, made once every delivery of it has run (writeAfterDeliveries) */
let writes: Delivery[] = [];

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
  let allRan = false;
  delivering = true;
  try {
    for (; i < list.length; i++) list[i]!();
    allRan = true;
  } finally {
    delivering = false;
    // a delivery threw (its error goes on up): the other connections' messages must not be lost with it, so
    // the deliveries after it run in the next check phase, ahead of any asked during this run
    if (i < list.length - 1) requeue(list.slice(i + 1));
    list.length = 0;
    // the answers of the deliveries that ran go out either way; a write's error must not hide a delivery's
    const failure = writes.length > 0 ? writeHeld() : null;
    if (failure !== null && allRan) throw failure;
  }
}

/**
 * Asks for `write` once this check phase's deliveries have all run, and answers true — or answers false (write
 * now) outside a delivery run. The answers of one run then leave in one burst instead of one per statement as it
 * finishes: a pgbench thread woken by its first answer finds its other connections' answers already there,
 * instead of sleeping in poll() again until each arrives (fewer wake-ups for the client and fewer for the
 * server's writes to pay for).
 */
export function writeAfterDeliveries(write: Delivery): boolean {
  if (!delivering) return false;
  writes.push(write);
  return true;
}

/** makes the held writes; a write that throws does not keep the others back: the first error is answered */
function writeHeld(): unknown {
  const list = writes;
  writes = [];
  let failure: unknown = null;
  for (const write of list) {
    try {
      write();
    } catch (e) {
      failure ??= e;
    }
  }
  return failure;
}

function requeue(rest: Delivery[]): void {
  if (due.length === 0) setImmediate(runDue);
  due.unshift(...rest);
}
