/**
 * commit-turns.ts without a server: a wait for a held turn ends at once with the statement's cancel (its
 * abort reason, else 57014) and nothing else changes; a turn given up while queued still keeps the queue's
 * order (the one behind it waits for the holder before it); staging catalogs are known by mark.
 */
import { describe, expect, it } from 'vitest';
import { pgError, queryCanceled } from '../../common/errors.ts';
import { awaitTurn, isStagingCatalog, markStagingCatalog, takeTurn } from './commit-turns.ts';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('commit turns', () => {
  it('a wait for a held turn ends with the cancel\'s error as soon as the signal aborts', async () => {
    const release = await takeTurn('t1');
    const abort = new AbortController();
    const waiting = awaitTurn('t1', abort.signal);
    await tick();
    const started = Date.now();
    abort.abort(pgError('57014', 'canceling statement due to statement timeout'));
    await expect(waiting).rejects.toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
    expect(Date.now() - started).toBeLessThan(500);
    // an abort without a PostgreSQL reason is the user-request cancel
    const other = new AbortController();
    const second = awaitTurn('t1', other.signal);
    other.abort();
    await expect(second).rejects.toMatchObject({ code: queryCanceled().code, message: 'canceling statement due to user request' });
    release();
    expect(await awaitTurn('t1', new AbortController().signal)).toBe(false);
  });

  it('an already aborted statement does not wait at all', async () => {
    const release = await takeTurn('t2');
    const abort = new AbortController();
    abort.abort();
    await expect(awaitTurn('t2', abort.signal)).rejects.toMatchObject({ code: '57014' });
    release();
  });

  it('a turn given up while queued keeps the order: the next one still waits for the first holder', async () => {
    const first = await takeTurn('t3');
    const abort = new AbortController();
    const cancelled = takeTurn('t3', abort.signal);
    const third = takeTurn('t3');
    let thirdGot = false;
    void third.then(() => { thirdGot = true; });
    abort.abort();
    await expect(cancelled).rejects.toMatchObject({ code: '57014' });
    await tick();
    expect(thirdGot).toBe(false);
    first();
    (await third)();
    expect(thirdGot).toBe(true);
  });

  it('staging catalogs are marked', () => {
    const staging = markStagingCatalog({});
    expect(isStagingCatalog(staging)).toBe(true);
    expect(isStagingCatalog({})).toBe(false);
  });
});
