#!/usr/bin/env node
// The `kassa` command. Runs the TypeScript sources through tsx's loader; the single-file build
// (`npm run build`) replaces this with dist/kassa.mjs for operators who deploy without node_modules.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
await main(process.argv.slice(2), async () => (await import('../workers/process.ts')).startKassaWorker);
