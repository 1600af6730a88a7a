#!/usr/bin/env node
// Entry point of the `lakegate` command: loads the TypeScript sources through tsx's ESM hook.
import { register } from 'tsx/esm/api';

register();
await import('../src/server/cli.ts');
