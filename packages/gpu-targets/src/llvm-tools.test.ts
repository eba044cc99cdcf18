import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LlvmToolError, describeFailure, findLlvmTool, requireLlvmTool } from './llvm-tools.js';

const root = mkdtempSync(join(tmpdir(), 'gpu-tools-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tool(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}

describe('findLlvmTool', () => {
  it('prefers $SYCLKIT_LLVM_BIN, and on PATH takes only the -16 names (never a bare llc shim)', () => {
    const own = tool(join(root, 'own'), 'llc');
    const onPath = tool(join(root, 'path'), 'llc-16');
    tool(join(root, 'shim'), 'llc');
    expect(findLlvmTool('llc', { SYCLKIT_LLVM_BIN: join(root, 'own'), PATH: '' })).toBe(own);
    const found = findLlvmTool('llc', { PATH: `${join(root, 'shim')}:${join(root, 'path')}` });
    // Debian's /usr/lib/llvm-16/bin wins when installed; otherwise the -16 name on PATH
    expect([onPath, '/usr/lib/llvm-16/bin/llc']).toContain(found);
  });

  it('says how to install a missing tool', () => {
    const env = { SYCLKIT_LLVM_BIN: join(root, 'none'), PATH: '' };
    if (findLlvmTool('ld.lld', env) !== undefined) return; // installed system-wide
    expect(() => requireLlvmTool('ld.lld', 'linking AMDGPU code objects', env)).toThrow(LlvmToolError);
    expect(() => requireLlvmTool('ld.lld', 'linking AMDGPU code objects', env)).toThrow(/apt-get install -y lld-16/);
  });
});

describe('describeFailure', () => {
  it('keeps the first meaningful stderr lines and drops stack dumps', () => {
    const text = describeFailure('llc', {
      status: null,
      signal: 'SIGABRT',
      stdout: Buffer.alloc(0),
      stderr: 'LLVM ERROR: Cannot select: fpow\nPLEASE submit a bug report\nStack dump:\n #0 0x1234 foo\n',
    });
    expect(text).toBe('llc failed (killed by SIGABRT):\nLLVM ERROR: Cannot select: fpow');
  });
});
