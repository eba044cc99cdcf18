/**
 * Test helpers: parse and print modules, pick a function's text, and run LLVM 16's tools (tests
 * that need one skip, naming it, when it is not installed).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseModule, printModule, type Module, type ParseOptions } from '@syclkit/ir';

export function parse(text: string, pointers?: ParseOptions['pointers']): Module {
  return parseModule(text, { filename: 'test.ll', ...(pointers === undefined ? {} : { pointers }) });
}

export function print(module: Module): string {
  return printModule(module);
}

/** The printed lines of one function (its `define` or `declare` line through its closing brace). */
export function functionText(module: Module, name: string): string {
  const lines = printModule(module).split('\n');
  const start = lines.findIndex((line) => /^(define|declare) /.test(line) && line.includes(`@${name}(`));
  if (start < 0) throw new Error(`no function @${name} in the printed module`);
  if (lines[start]!.startsWith('declare')) return lines[start]!;
  const end = lines.indexOf('}', start);
  return lines.slice(start, end + 1).join('\n');
}

/** LLVM 16's tool `name`, or undefined when not installed. */
export function llvm16(name: string): string | undefined {
  const path = `/usr/lib/llvm-16/bin/${name}`;
  return existsSync(path) ? path : undefined;
}

/** Runs LLVM 16's verifier over IR text; returns its complaints ('' when the module is valid). */
export function llvmVerify(text: string): string {
  const opt = llvm16('opt');
  if (opt === undefined) throw new Error('LLVM 16 opt is not installed');
  const r = spawnSync(opt, ['-passes=verify', '-disable-output', '-'], { input: text, encoding: 'utf8' });
  return r.status === 0 ? '' : r.stderr || `opt exited ${r.status}`;
}

export const NVPTX_HEADER = `target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
`;

export const AMDGPU_HEADER = `target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7"
target triple = "amdgcn-amd-amdhsa"
`;
