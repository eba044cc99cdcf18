import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError, type OptionSpec } from '../args.js';
import { jobCount, jobsOf, MAX_JOBS } from './jobs.js';

const SPECS: readonly OptionSpec[] = [{ name: 'j', kind: 'value', valueName: '<n>' }];

describe('jobsOf', () => {
  it('gives one thread without -j, whatever the machine has (workers re-parse the program: a loss measured up to 16 cores)', () => {
    expect(jobsOf(parseArgs([], SPECS))).toEqual({ jobs: 1 });
  });

  it('takes -j N as asked, for programs of any size, capped at MAX_JOBS', () => {
    expect(jobsOf(parseArgs(['-j', '3'], SPECS))).toEqual({ jobs: 3, shareMinFunctions: 0 });
    expect(jobsOf(parseArgs([`-j=${MAX_JOBS + 5}`], SPECS))).toEqual({ jobs: MAX_JOBS, shareMinFunctions: 0 });
  });

  it('rejects -j values that are not positive numbers', () => {
    for (const bad of ['0', '-1', 'two', '1.5']) expect(() => jobsOf(parseArgs(['-j', bad], SPECS))).toThrow(UsageError);
  });
});

describe('jobCount', () => {
  it('keeps a request between 1 and MAX_JOBS', () => {
    expect(jobCount(1)).toBe(1);
    expect(jobCount(MAX_JOBS)).toBe(MAX_JOBS);
    expect(jobCount(MAX_JOBS + 1)).toBe(MAX_JOBS);
  });
});
