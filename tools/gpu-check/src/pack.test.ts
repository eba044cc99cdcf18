import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CARRY, DEVICE_COMMAND, closure } from './pack.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('what gpu-check pack carries', () => {
  const files = closure(root);

  it('takes koffi\'s JavaScript and only the linux-x64 glibc binary, not its sources or the musl build', () => {
    expect(files).toContain('node_modules/koffi/src/koffi/index.cjs');
    expect(files).toContain('node_modules/koffi/src/koffi/src/static.cjs');
    expect(files).toContain('node_modules/@koromix/koffi-linux-x64/linux_x64/koffi.node');
    expect(files.filter((f) => f.includes('musl') || f.endsWith('.cc') || f.includes('/vendor/'))).toEqual([]);
  });

  it('takes the workspace links and the packages gpu-check imports, not the command line or the tests', () => {
    for (const name of ['runtime', 'offload-wrapper', 'ir', 'formats', 'device-config']) expect(files).toContain(`node_modules/@syclkit/${name}`);
    expect(files.some((f) => f.startsWith('packages/cli/'))).toBe(false);
    expect(files.some((f) => f.includes('.test.'))).toBe(false);
    expect(files).toContain('node_modules/yaml/package.json');
  });

  it('names the command and the carry list of the device call', () => {
    expect(CARRY).toBe('.gpu-carry');
    expect(DEVICE_COMMAND).toBe('bash .gpu-carry/run.sh');
  });
});
