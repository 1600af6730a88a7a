#!/usr/bin/env -S node --initial-old-space-size=256 --min-semi-space-size=16
// Entry point of the `lakegate` command: loads the TypeScript sources through tsx's ESM hook. The flags (also in
// package.json's `start`): V8 starts with a 256 MB old-generation limit instead of growing it from a few MB, so a
// bulk load's ArrayBuffers (CopyData payloads, column buffers back from the encode threads) do not trigger a full
// collection every few dozen MB (SF 0.2 COPY: 9–11 full GCs → 5–6, CPU −7 % unpartitioned, −15–20 % by month).
// The young generation stays at its 16 MB maximum: by default it starts at 1 MB and a full GC in a quiet moment (the
// memory reducer) shrinks it back there, after which a busy server scavenges every few hundred statements instead of
// every few thousand (pgbench's prepared lookup after a pause: 2–4x the scavenges; src/server/start-flags.test.ts).
import { register } from 'tsx/esm/api';

register();
await import('../src/server/cli.ts');
