import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShimDir, EnvironmentError, findLlvmBin } from './toolchain.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'conformance-toolchain-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function fakeLlvm(dir: string, tools: string[]): string {
  mkdirSync(dir, { recursive: true });
  for (const tool of tools) {
    writeFileSync(join(dir, tool), `#!/bin/sh\necho ${tool} "$@"\n`);
    chmodSync(join(dir, tool), 0o755);
  }
  return dir;
}

describe('finding LLVM', () => {
  it('takes the first candidate that has FileCheck and not', () => {
    const incomplete = fakeLlvm(join(root, 'llvm-19/bin'), ['FileCheck']);
    const complete = fakeLlvm(join(root, 'llvm-16/bin'), ['FileCheck', 'not']);
    expect(findLlvmBin(undefined, [incomplete, complete], '')).toBe(complete);
  });

  it('falls back to FileCheck on PATH', () => {
    const onPath = fakeLlvm(join(root, 'path-bin'), ['FileCheck', 'not']);
    expect(findLlvmBin(undefined, [join(root, 'none')], `/nonexistent:${onPath}`)).toBe(onPath);
  });

  it('tells the user which packages to install when there is none', () => {
    expect(() => findLlvmBin(undefined, [join(root, 'none')], '')).toThrow(EnvironmentError);
    expect(() => findLlvmBin(undefined, [join(root, 'none')], '')).toThrow('apt-get install -y llvm-16-tools llvm-16 llvm-19');
  });

  it('insists that an explicit --llvm-bin holds the tools', () => {
    const partial = fakeLlvm(join(root, 'partial'), ['FileCheck']);
    expect(() => findLlvmBin(partial)).toThrow(/no executable not there/);
    expect(() => findLlvmBin(join(root, 'missing'))).toThrow(/no such directory/);
  });
});

describe('tool shims', () => {
  it('runs syclkit for opt, sycl-post-link, sycl-module-split, llvm-split and llc and links the LLVM tools', () => {
    const llvm = fakeLlvm(join(root, 'llvm'), ['FileCheck', 'not', 'count', 'opt', 'llvm-as', 'llvm-split', 'llc']);
    const fakeSyclkit = join(root, 'syclkit.js');
    writeFileSync(fakeSyclkit, 'console.log(["syclkit", ...process.argv.slice(2)].join(" "));\n');
    const shims = join(root, 'shims');
    mkdirSync(shims);
    const provided = createShimDir(shims, { llvmBin: llvm, syclkitBin: fakeSyclkit, nodePath: process.execPath, toolMap: new Map() });
    expect(provided).toEqual(['FileCheck', 'count', 'llc', 'llvm-as', 'llvm-split', 'not', 'opt', 'sycl-module-split', 'sycl-post-link']);
    expect(execFileSync(join(shims, 'opt'), ['-S', 'a b']).toString()).toBe('syclkit opt -S a b\n');
    expect(execFileSync(join(shims, 'sycl-post-link'), ['-split=auto']).toString()).toBe('syclkit post-link -split=auto\n');
    expect(execFileSync(join(shims, 'sycl-module-split'), []).toString()).toBe('syclkit module-split\n');
    // LLVM's own llvm-split lacks -sycl-split: ours replaces it
    expect(execFileSync(join(shims, 'llvm-split'), ['-sycl-split=auto']).toString()).toBe('syclkit llvm-split -sycl-split=auto\n');
    // intel/llvm's llc runs SYCL passes inside NVPTX/AMDGPU codegen: ours runs them, then LLVM's llc
    expect(execFileSync(join(shims, 'llc'), ['-march=nvptx64']).toString()).toBe('syclkit llc -march=nvptx64\n');
    expect(lstatSync(join(shims, 'FileCheck')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(shims, 'llvm-as'))).toBe(join(llvm, 'llvm-as'));
  });

  it('lets --tool-map replace a syclkit tool or an LLVM one', () => {
    const llvm = fakeLlvm(join(root, 'llvm'), ['FileCheck', 'not']);
    const shims = join(root, 'shims');
    mkdirSync(shims);
    createShimDir(shims, {
      llvmBin: llvm,
      syclkitBin: '/nonexistent/syclkit.js',
      nodePath: process.execPath,
      toolMap: new Map([
        ['opt', 'echo real-opt'],
        ['FileCheck', 'echo my-filecheck'],
      ]),
    });
    expect(execFileSync(join(shims, 'opt'), ['-S']).toString()).toBe('real-opt -S\n');
    expect(execFileSync(join(shims, 'FileCheck'), ['x']).toString()).toBe('my-filecheck x\n');
  });
});
