/** A scan's shared request parts go with its first tasks only; a worker rebuilds every task's request whole. */
import { describe, expect, it } from 'vitest';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { ScanTaskRequest } from './scan-task.ts';
import { isMissingParts, MISSING_PARTS, receiveScanRequest, ScanRequestSender } from './scan-request-wire.ts';

const cancel = new SharedArrayBuffer(4);
const io = { kind: 'local-prefix', prefixMap: [['s3://b/', '/tmp/b/']] } as unknown as ScanTaskRequest['io'];
const fields = [{ id: 1, name: 'k', required: true, type: { kind: 'primitive', name: 'int' } }] as unknown as ScanTaskRequest['fields'];
const filter = { kind: 'in', fieldId: 1, values: { $inF64: new Float64Array(new SharedArrayBuffer(16)) } };
const task = (n: number): FileScanTask => ({ file: { filePath: `f${n}.parquet` } }) as unknown as FileScanTask;

function request(scanId: string, n: number, more: Partial<ScanTaskRequest> = {}): ScanTaskRequest {
  return { scanId, io, task: task(n), fields, deleteFields: [], filter, lateMaterialization: true, cancel, ...more };
}

/** the message as a worker receives it (structured clone) */
const posted = (m: unknown): unknown => structuredClone(m);

describe('scan request wire (scan-request-wire.ts)', () => {
  it('sends the parts with one task per thread, and the worker gives every task its whole request', () => {
    const sender = new ScanRequestSender(2);
    const msgs = [0, 1, 2, 3].map((n) => sender.wire(request('scan-a', n, { fileCacheBytes: 1024 })));
    expect(msgs.map((m) => m.$parts !== undefined)).toEqual([true, true, false, false]);
    expect(msgs[2]).not.toHaveProperty('filter');
    const got = msgs.map((m) => receiveScanRequest(posted(m)) as ScanTaskRequest);
    for (const [n, r] of got.entries()) {
      expect(r).toEqual(posted(request('scan-a', n, { fileCacheBytes: 1024 })));
      expect(r).not.toHaveProperty('fragment'); // absent stays absent
    }
    // later tasks share the parts the worker kept (the key list still in the sender's shared memory)
    expect(got[3]!.filter).toBe(got[1]!.filter);
    const keys = (got[3]!.filter as typeof filter).values.$inF64;
    filter.values.$inF64[0] = 7;
    expect(keys[0]).toBe(7);
    filter.values.$inF64[0] = 0;
  });

  it('answers a task without parts the worker never saw with MISSING_PARTS, and the whole request runs', () => {
    const sender = new ScanRequestSender(1);
    sender.wire(request('scan-b', 0)); // went to another thread
    const bare = sender.wire(request('scan-b', 1));
    expect(bare.$parts).toBeUndefined();
    expect(receiveScanRequest(posted(bare))).toBeUndefined();
    expect(isMissingParts(MISSING_PARTS)).toBe(true);
    expect(isMissingParts({ ok: false, canceled: true, error: null })).toBe(false);
    const whole = sender.whole(request('scan-b', 1));
    expect(receiveScanRequest(posted(whole))).toEqual(posted(request('scan-b', 1)));
  });

  it('gives a scan id that comes back with other parts a new key', () => {
    const sender = new ScanRequestSender(1);
    const a = sender.wire(request('scan-c', 0));
    const b = sender.wire(request('scan-c', 1, { fragment: { ops: [] } }));
    expect(b.$partsKey).not.toBe(a.$partsKey);
    expect(b.$parts).toBeDefined();
    expect((receiveScanRequest(posted(b)) as ScanTaskRequest).fragment).toEqual({ ops: [] });
  });

  it('passes other messages through', () => {
    expect(receiveScanRequest(null)).toBeNull();
    const merge = { kind: 'merge-partition', payload: 1, cancel };
    expect(receiveScanRequest(merge)).toBe(merge);
  });
});
