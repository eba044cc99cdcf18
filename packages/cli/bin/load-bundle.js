// Loads the CLI bundle (dist/syclkit.bundle.cjs, one CommonJS file) with the V8 code cache that
// scripts/bundle.mjs made for it at build time (dist/syclkit.bundle.cache): V8 then skips parsing
// the 2 MB bundle and compiling the functions a compile or opt run needs, about a third of the
// CLI's start-up. Committed (not built), beside bin/syclkit.js, which is its user; the bundle
// script imports it too, to make the cache through the same code.
//
// The cache is used only for the very bytes it was made from: its header holds the length and
// CRC-32 of the script V8 compiled and the CRC-32 of the cache data, checked here (V8's own check
// of a cache is its source's length, Node's version and the V8 flags). A cache that fails either
// check, or that V8 rejects, is not an error: V8 compiles the bundle as without one.
//
// CommonJS (bin/package.json): scripts/code-cache.mjs imports its exports by name (Node finds
// them in the `module.exports = { ... }` at the end), as image worker threads import
// imageWorkerMain.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS */
'use strict';
const { isAscii } = require('node:buffer');
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');
const { crc32 } = require('node:zlib');

/**
 * V8 flags the CLI runs with (bin/syclkit.js sets them before loading the bundle). A code cache
 * records the flags it was made under and V8 rejects it under others, so the bundle script makes
 * it under these. --no-flush-bytecode: V8 drops the bytecode of functions not run lately at full
 * collections, the bundle's wrapper (run once, at start-up) included, and functions compiled after
 * that cost more (4k-kernel compile under callgrind, cache made under its flags: 18.75G
 * instructions with flushing, 18.30G without).
 */
const CLI_V8_FLAGS = '--max-inlined-bytecode-size-cumulative=200 --no-flush-bytecode';

/** `SKCC`, then a format number: a change of the wrapper below changes it. */
const MAGIC = 0x53_4b_43_43;
const FORMAT = 1;
const HEADER_SIZE = 20;

const HEAD = '(function (exports, require, module, __filename, __dirname) {';
const TAIL = '\n})';

/** The code cache file of a bundle. */
function codeCachePath(bundlePath) {
  return bundlePath.replace(/\.cjs$/, '') + '.cache';
}

/**
 * The script V8 compiles for the bundle's bytes, and their checksum. ASCII bytes (the bundle
 * script makes them) are the same text read as UTF-8 or Latin-1; Latin-1 is a copy, not a
 * decoding, and gives V8 a one-byte string.
 */
function wrap(bytes) {
  const text = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  return { source: HEAD + text + TAIL, sourceCrc: crc32(TAIL, crc32(bytes, crc32(HEAD))) >>> 0 };
}

/** The cache data in `file` if it was made for a source of this length and checksum. */
function readCache(file, sourceLength, sourceCrc) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length < HEADER_SIZE) return undefined;
  const data = bytes.subarray(HEADER_SIZE);
  const ok =
    bytes.readUInt32LE(0) === MAGIC &&
    bytes.readUInt32LE(4) === FORMAT &&
    bytes.readUInt32LE(8) === sourceLength &&
    bytes.readUInt32LE(12) === sourceCrc &&
    bytes.readUInt32LE(16) === crc32(data) >>> 0;
  return ok ? data : undefined;
}

/**
 * Runs the bundle at `bundlePath` as Node runs a CommonJS module (its own `require`,
 * `__filename`, `__dirname`; `import()` as in the main context) and returns its exports, and the
 * compiled script (for {@link writeCodeCache}). `useCache: false` ignores the cache file.
 */
function loadBundle(bundlePath, { useCache = true } = {}) {
  const { source, sourceCrc } = wrap(readFileSync(bundlePath));
  const cachedData = useCache ? readCache(codeCachePath(bundlePath), source.length, sourceCrc) : undefined;
  const script = new vm.Script(source, {
    filename: bundlePath,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundlePath), module, bundlePath, dirname(bundlePath));
  return { exports: module.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

/** Writes the code cache of `script` (what {@link loadBundle} compiled from `bundlePath`), whole or not at all. */
function writeCodeCache(bundlePath, script) {
  const { source, sourceCrc } = wrap(readFileSync(bundlePath));
  const data = script.createCachedData();
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(FORMAT, 4);
  header.writeUInt32LE(source.length, 8);
  header.writeUInt32LE(sourceCrc, 12);
  header.writeUInt32LE(crc32(data) >>> 0, 16);
  const file = codeCachePath(bundlePath);
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, Buffer.concat([header, data]));
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * The worker side of `-j N` when the CLI runs from its bundle: image worker threads import this
 * module (src/bundle-entry.ts names it) and call this, which loads the bundle as the main thread
 * did, code cache included.
 */
async function imageWorkerMain() {
  await loadBundle(join(__dirname, '../dist/syclkit.bundle.cjs')).exports.imageWorkerMain();
}

module.exports = { CLI_V8_FLAGS, codeCachePath, loadBundle, writeCodeCache, imageWorkerMain };
