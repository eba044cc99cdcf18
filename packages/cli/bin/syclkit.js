#!/usr/bin/env node
// Committed (not built) so npm links a real, executable file at install time.
import { setFlagsFromString } from 'node:v8';

// A smaller inlining budget gets TurboFan code for the parser and printer sooner in a short-lived
// process: parse+print of a 10 MiB module is ~11% faster, large pass and split runs are unchanged
// (tools/bench). Set before the compiler has seen any of our code, hence the dynamic import.
setFlagsFromString('--max-inlined-bytecode-size-cumulative=200');

// A reader that stops early (`syclkit inspect x --json | head`) closes the pipe: stop quietly, as
// Unix tools do on SIGPIPE, instead of Node's unhandled 'error' event and its stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`syclkit: error: cannot write to standard output: ${error.message}\n`);
  process.exit(1);
});

const { main } = await import('../dist/main.js');
process.exitCode = await main(process.argv.slice(2));
