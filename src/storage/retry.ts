/**
 * Bounded retries with exponential backoff and full jitter, for S3 calls: 5xx, throttling
 * (503 SlowDown, 429, Throttling*) and network errors are retried; anything else fails at once.
 * @see https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/
 */

export interface RetryOptions {
  /** Total attempts including the first (default 5). */
  readonly maxAttempts?: number;
  /** Backoff base in ms: attempt n waits random(0, min(maxDelayMs, baseDelayMs · 2^n)) (default 50). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Injected for tests. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

const RETRYABLE_NAMES = new Set([
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalError',
  'ServiceUnavailable',
  'TimeoutError',
]);

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'UND_ERR_SOCKET']);

export function isRetryable(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; $retryable?: unknown; cause?: unknown };
  const status = err.$metadata?.httpStatusCode;
  if (status !== undefined && (status >= 500 || status === 429)) return true;
  if (err.name !== undefined && RETRYABLE_NAMES.has(err.name)) return true;
  if (err.code !== undefined && NETWORK_CODES.has(err.code)) return true;
  if (err.$retryable !== undefined) return true;
  return err.cause !== undefined && err.cause !== e && isRetryable(err.cause);
}

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 5);
  const base = opts.baseDelayMs ?? 50;
  const cap = opts.maxDelayMs ?? 5_000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = opts.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      if (attempt >= maxAttempts || !isRetryable(e)) throw e;
      await sleep(Math.floor(random() * Math.min(cap, base * 2 ** attempt)));
    }
  }
}
