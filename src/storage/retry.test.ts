import { describe, expect, it } from 'vitest';
import { isRetryable, withRetry } from './retry.ts';

const s3Error = (name: string, status: number): Error => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });

describe('isRetryable', () => {
  it.each([
    ['503 SlowDown', s3Error('SlowDown', 503), true],
    ['500 InternalError', s3Error('InternalError', 500), true],
    ['429', s3Error('TooManyRequests', 429), true],
    ['throttling name without status', Object.assign(new Error('x'), { name: 'ThrottlingException' }), true],
    ['ECONNRESET', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), true],
    ['network error as cause', new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ETIMEDOUT' }) }), true],
    ['TimeoutError', Object.assign(new Error('t'), { name: 'TimeoutError' }), true],
    ['404 NoSuchKey', s3Error('NoSuchKey', 404), false],
    ['412 PreconditionFailed', s3Error('PreconditionFailed', 412), false],
    ['403 AccessDenied', s3Error('AccessDenied', 403), false],
    ['plain Error', new Error('bug'), false],
    ['non-object', 'boom', false],
  ])('%s → %s', (_label, err, expected) => {
    expect(isRetryable(err)).toBe(expected);
  });
});

describe('withRetry', () => {
  it('backs off exponentially with full jitter, capped, until success', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async (attempt) => {
        calls += 1;
        if (attempt < 5) throw s3Error('SlowDown', 503);
        return 'ok';
      },
      { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 500, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(5);
    expect(sleeps).toEqual([100, 200, 250, 250]); // 0.5 × min(500, 100·2^n)
  });

  it('stops after maxAttempts and rethrows the last error', async () => {
    let calls = 0;
    const err = s3Error('SlowDown', 503);
    await expect(
      withRetry(
        async () => {
          calls += 1;
          throw err;
        },
        { maxAttempts: 3, sleep: async () => undefined },
      ),
    ).rejects.toBe(err);
    expect(calls).toBe(3);
  });

  it('does not retry errors that are not transient', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls += 1;
          throw s3Error('AccessDenied', 403);
        },
        { sleep: async () => undefined },
      ),
    ).rejects.toThrow('AccessDenied');
    expect(calls).toBe(1);
  });
});
