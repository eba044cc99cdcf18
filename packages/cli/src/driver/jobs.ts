/**
 * How many threads a command uses for the images (`-j`), and which programs are worth sharing.
 * Kept light: commands decide here before loading the worker machinery (image-workers.ts).
 */
import type { Module } from '@syclkit/ir';
import { hasConditionalCalls } from '@syclkit/post-link';
import { UsageError, valueOf, type ParsedArgs } from '../args.js';

/** At most this many threads, whatever the machine has. */
export const MAX_JOBS = 8;

/** API callers that ask for threads without a size threshold: smaller programs keep one thread (their images are not worth a second parse). */
export const SHARE_MIN_FUNCTIONS = 2000;

/**
 * Threads for `-j`: what the user asked for, at most MAX_JOBS; one without `-j`. Each worker
 * parses the whole program again before it takes images, and on a quiet 16-core host that cost
 * more than the shared images gave back: compile of 16k kernels took 7.6-9.1 s with one thread
 * and 8.8-12 s with 2-8 (and 2-8x the memory); 4k kernels and post-link were even at best
 * (tools/bench/README.md, "Threads").
 */
export function jobCount(requested: number): number {
  return Math.max(1, Math.min(requested, MAX_JOBS));
}

/** `-j <n>` (a positive number): that many threads, whatever the program's size; one without it. */
export function jobsOf(args: ParsedArgs): { jobs: number; shareMinFunctions?: number } {
  const text = valueOf(args, 'j');
  if (text === undefined) return { jobs: 1 };
  if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`option '-j' takes a positive number, got '${text}'`);
  return { jobs: jobCount(Number(text)), shareMinFunctions: 0 };
}

/**
 * Whether the images of a program can be shared among threads: no image adds images (device_if
 * add-on images, virtual-function dummies), and the program has at least `minFunctions`
 * functions.
 */
export function shareable(program: Module, minFunctions = SHARE_MIN_FUNCTIONS): boolean {
  if (program.functions.length < minFunctions) return false;
  if (program.functions.some((fn) => fn.attributes.fn.hasString('indirectly-callable'))) return false;
  return !hasConditionalCalls(program);
}
