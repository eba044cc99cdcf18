#!/usr/bin/env node
// Committed (not built) so npm links a real, executable file at install time. CommonJS (see
// bin/package.json), as bin/load-bundle.js is: Node's ESM loader would cost a tiny `opt -S` about
// 4% more instructions, for two files that import only Node's modules and the bundle.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS */
'use strict';
const { existsSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { setFlagsFromString } = require('node:v8');
const { CLI_V8_FLAGS, loadBundle } = require('./load-bundle.js');

// A smaller inlining budget gets TurboFan code for the parser and printer sooner in a short-lived
// process: parse+print of a 10 MiB module is ~11% faster, large pass and split runs are unchanged
// (tools/bench). Bytecode is not flushed (see CLI_V8_FLAGS). Set before the compiler has seen any
// of the CLI's code.
setFlagsFromString(CLI_V8_FLAGS);

// A reader that stops early (`syclkit inspect x --json | head`) closes the pipe: stop quietly, as
// Unix tools do on SIGPIPE, instead of Node's unhandled 'error' event and its stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`syclkit: error: cannot write to standard output: ${error.message}\n`);
  process.exit(1);
});

const argv = process.argv.slice(2);
const bundle = join(__dirname, '../dist/syclkit.bundle.cjs');
if (useBundle(argv)) run(loadBundle(bundle).exports.main);
else import(pathToFileURL(join(__dirname, '../dist/main.js')).href).then(({ main }) => run(main));

/** Runs the CLI's main on the command line; its status becomes the exit status. */
function run(main) {
  main(argv).then((status) => {
    process.exitCode = status;
  });
}

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
  const stamp = join(__dirname, '../dist/syclkit.bundle.stamp.json');
  if (!existsSync(stamp)) return true;
  try {
    const { inputs } = JSON.parse(readFileSync(stamp, 'utf8'));
    return Object.entries(inputs).every(([path, mtime]) => statSync(join(__dirname, '../dist', path), { throwIfNoEntry: false })?.mtimeMs === mtime);
  } catch {
    return false;
  }
}
