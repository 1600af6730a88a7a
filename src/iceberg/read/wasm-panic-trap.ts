/**
 * parquet-wasm's async reader panics (WebAssembly.RuntimeError "unreachable") on damaged page data instead of
 * returning an error. The panic happens inside a wasm-bindgen-futures task run through `queueMicrotask`, so
 * it would surface as an uncaught exception (the default handler ends the process) while the read's promise
 * never settles (the query hangs). The sync decoder reports the same bytes as a clean error, and the module
 * stays usable after such a panic, so the panic is routed back to the reads in flight instead:
 * `queueMicrotask` is wrapped once per thread; a RuntimeError thrown by a task while a trapped read is
 * pending rejects those reads; anything else is rethrown unchanged. Several reads in flight at the moment of a
 * panic all fail (the panic does not say which file it was decoding).
 */

const pending = new Set<(e: Error) => void>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const original = globalThis.queueMicrotask.bind(globalThis);
  globalThis.queueMicrotask = (task: () => void): void =>
    original(() => {
      try {
        task();
      } catch (e) {
        // WebAssembly.RuntimeError (the lib has no WebAssembly types)
        if (!(e instanceof Error) || e.name !== 'RuntimeError' || pending.size === 0) throw e;
        const err = new Error(`the Parquet decoder aborted (${e.message}): damaged page data`, { cause: e });
        for (const reject of [...pending]) reject(err);
      }
    });
}

/** Runs one parquet-wasm async call so that a decoder panic rejects it instead of hanging it. */
export async function trapWasmPanics<T>(run: () => Promise<T>): Promise<T> {
  install();
  let reject!: (e: Error) => void;
  const panicked = new Promise<never>((_resolve, r) => {
    reject = r;
  });
  pending.add(reject);
  try {
    return await Promise.race([run(), panicked]);
  } finally {
    pending.delete(reject);
  }
}
