#!/usr/bin/env node
// Committed (not built) so npm links a real, executable file at install time.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { CLI_V8_FLAGS, loadBundle } from './load-bundle.js';

// A smaller inlining budget gets TurboFan code for the parser and printer sooner in a short-lived
// process: parse+print of a 10 MiB module is ~11% faster, large pass and split runs are unchanged
// (tools/bench). Set before the compiler has seen any of the CLI's code.
setFlagsFromString(CLI_V8_FLAGS);

// A reader that stops early (`syclkit inspect x --json | head`) closes the pipe: stop quietly, as
// Unix tools do on SIGPIPE, instead of Node's unhandled 'error' event and its stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`syclkit: error: cannot write to standard output: ${error.message}\n`);
  process.exit(1);
});

const argv = process.argv.slice(2);
const bundle = new URL('../dist/syclkit.bundle.cjs', import.meta.url);
const { main } = useBundle(argv) ? loadBundle(fileURLToPath(bundle)).exports : await import('../dist/main.js');
process.exitCode = await main(argv);

/**
 * Whether to run the CLI from its bundle (dist/syclkit.bundle.cjs: one file for Node to load,
 * with a V8 code cache, instead of about 235 modules) rather than from dist/main.js. Not when the
 * command line loads user code: a `--load-pass` module imports @syclkit/* packages, which must be
 * the very modules the CLI runs (instanceof, registries), and the bundle has copies of its own.
 * Not when the bundle is missing, older than a later `tsc -b` of this checkout (its stamp says),
 * or SYCLKIT_NO_BUNDLE is set.
 */
function useBundle(args) {
  // Every spelling the option parser takes: -load-pass, --load-pass, each with ' value' or '=value'.
  if (args.some((arg) => /^--?load-pass(=|$)/.test(arg))) return false;
  if (process.env.SYCLKIT_NO_BUNDLE) return false;
  if (!existsSync(bundle)) return false;
  // The stamp is not published: an installed package has none and runs its bundle.
  const stamp = new URL('../dist/syclkit.bundle.stamp.json', import.meta.url);
  if (!existsSync(stamp)) return true;
  try {
    const { inputs } = JSON.parse(readFileSync(stamp, 'utf8'));
    return Object.entries(inputs).every(([path, mtime]) => statSync(new URL(path, stamp), { throwIfNoEntry: false })?.mtimeMs === mtime);
  } catch {
    return false;
  }
}
