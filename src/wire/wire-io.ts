/**
 * WireIO: what the protocol pieces (simple query, extended query, COPY) need from their connection:
 * the output buffer, the value codec, flushing with backpressure, and pulling the next client message.
 */
import type { FrontendMessage } from './protocol/frontend-messages.ts';
import type { RowSink } from './row-cursor.ts';
import type { HandlerSession } from './handler.ts';

export interface WireIO extends RowSink {
  readonly session: HandlerSession;
  /** writes everything buffered to the socket; awaits 'drain' when the socket is full */
  flush(): Promise<void>;
  /** next client message (used by COPY FROM STDIN), or null once the connection ended */
  nextMessage(): Promise<FrontendMessage | null>;
}
