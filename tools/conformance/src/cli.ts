#!/usr/bin/env node
// Entry point of `npm run conformance`; everything else lives in main.ts.
import { defaultRepoRoot, main } from './main.js';

const controller = new AbortController();
// First Ctrl-C stops the run cleanly (kills running tests, removes temporaries); a second one
// falls back to Node's default and exits at once.
process.once('SIGINT', () => controller.abort());

// `... | head`: once the reader is gone, stop writing and stop the run instead of crashing.
let stdoutGone = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  stdoutGone = true;
  controller.abort();
});
const io = { stdout: { write: (text: string) => stdoutGone || process.stdout.write(text) }, stderr: process.stderr };

process.exitCode = await main(process.argv.slice(2), io, { repoRoot: defaultRepoRoot(), cwd: process.cwd(), signal: controller.signal });
