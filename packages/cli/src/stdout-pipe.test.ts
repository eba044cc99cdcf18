/**
 * A reader that closes the pipe early (`syclkit … | head`) ends the run quietly: exit status 0
 * and nothing on stderr, never Node's unhandled 'error' event with a stack trace.
 * (Runs the committed bin over the built dist, so it needs `npm run build`.)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/syclkit.js', import.meta.url));

function runWithClosedStdout(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the first write
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

describe('syclkit writing into a closed pipe', () => {
  it('exits 0 with nothing on stderr when standard output is closed by the reader', async () => {
    const { status, stderr } = await runWithClosedStdout(['--help']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
  }, 60_000);
});
