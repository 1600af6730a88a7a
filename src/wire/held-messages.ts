/**
 * HeldMessages: the messages a connection parsed from this event-loop poll's reads, held until after-reads.ts
 * hands them to its queue. One list per connection, reused for every read: the parser adds to it
 * (FrontendParser.parseInto) and delivery empties it, with no array per read. Its slots are overwritten, never
 * trimmed — V8 gives an array emptied by `length = 0` a new backing store at its next push.
 */
import type { FrontendMessage } from './protocol/frontend-messages.ts';
import type { MessageSink } from './protocol/frontend-parser.ts';

/** slots an emptied list keeps (a bigger burst, such as pipelined COPY data, lets its array go) */
const SLOTS_KEPT = 64;

export class HeldMessages implements MessageSink {
  private items: (FrontendMessage | undefined)[] = [];
  /** messages held: items[0, count) */
  count = 0;

  push(m: FrontendMessage): void {
    if (this.count < this.items.length) this.items[this.count] = m;
    else this.items.push(m);
    this.count++;
  }

  /** the i-th message held, 0 ≤ i < count */
  at(i: number): FrontendMessage {
    return this.items[i]!;
  }

  /** drops every message (after delivery, or when the connection closed) */
  clear(): void {
    if (this.items.length > SLOTS_KEPT) this.items = [];
    else for (let i = 0; i < this.count; i++) this.items[i] = undefined;
    this.count = 0;
  }
}
