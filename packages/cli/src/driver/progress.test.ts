import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../test/harness.js';
import { createProgress } from './progress.js';

describe('progress', () => {
  it('stays silent when not on a terminal', () => {
    const io = memoryIO();
    const p = createProgress(io, 'syclkit compile');
    p.step('linking');
    p.done();
    expect(io.err()).toBe('');
  });

  it('shows nothing for a run shorter than the delay', () => {
    const io = memoryIO();
    let now = 0;
    const p = createProgress(io, 'x', { enabled: true, delayMs: 1000, now: () => now });
    now = 500;
    p.step('linking');
    p.done();
    expect(io.err()).toBe('');
  });

  it('rewrites one status line for a long run and erases it at the end', () => {
    const io = memoryIO();
    let now = 0;
    const p = createProgress(io, 'x', { enabled: true, delayMs: 1000, now: () => now });
    now = 1500;
    p.step('linking');
    p.step('post-link');
    p.done();
    expect(io.err()).toBe('\rx: linking\rx: post-link\r            \r');
  });
});
