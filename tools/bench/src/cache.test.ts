import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedModule, cacheKey } from './cache.js';
import { generateModule } from './generator.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'bench-cache-test-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('cacheKey', () => {
  it('is the same for the same options, spelled with or without defaults', () => {
    expect(cacheKey({ kernels: 32 })).toBe(cacheKey({ kernels: 32, seed: 1, tus: 8, functions: 192 }));
  });

  it('changes with any generator option', () => {
    const base = cacheKey({ kernels: 4, functions: 20 });
    for (const changed of [{ seed: 2 }, { tus: 3 }, { segments: 1 }, { pointers: 'typed' as const }, { debugInfo: true }, { functions: 21 }]) {
      expect(cacheKey({ kernels: 4, functions: 20, ...changed })).not.toBe(base);
    }
  });

  it('keys a target-size module by the size asked for', () => {
    expect(cacheKey({ targetSize: 1000 })).not.toBe(cacheKey({ targetSize: 2000 }));
    expect(cacheKey({ targetSize: 1000 })).toMatch(/^gen-v\d+-size1000-kauto-/);
  });
});

describe('cachedModule', () => {
  it('generates once, then reuses the file', () => {
    const dir = tempDir();
    const first = cachedModule(dir, { kernels: 3, functions: 12, tus: 2 });
    const second = cachedModule(dir, { kernels: 3, functions: 12, tus: 2 });
    expect(first.cached).toBe(false);
    expect(second.cached).toBe(true);
    expect(second.path).toBe(first.path);
    expect(readFileSync(first.path, 'utf8')).toBe(generateModule({ kernels: 3, functions: 12, tus: 2 }).text);
    expect(second.stats).toEqual(first.stats);
  });

  it('regenerates a cached file whose size no longer matches its metadata', () => {
    const dir = tempDir();
    const first = cachedModule(dir, { kernels: 2, functions: 8, tus: 1 });
    writeFileSync(first.path, 'truncated');
    const again = cachedModule(dir, { kernels: 2, functions: 8, tus: 1 });
    expect(again.cached).toBe(false);
    expect(readFileSync(again.path, 'utf8').length).toBe(first.stats.bytes);
  });
});
