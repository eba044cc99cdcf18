/**
 * How many threads a command uses for the images (`-j`), and which programs are worth sharing.
 * Kept light: commands decide here before loading the worker machinery (image-workers.ts).
 */
import { availableParallelism, loadavg } from 'node:os';
import type { Module } from '@syclkit/ir';
import { hasConditionalCalls } from '@syclkit/post-link';
import { UsageError, valueOf, type ParsedArgs } from '../args.js';

/** At most this many threads, whatever the machine has. */
export const MAX_JOBS = 8;

/** Without `-j`, programs with fewer functions keep one thread: their images are not worth a second parse. */
export const SHARE_MIN_FUNCTIONS = 2000;

/**
 * Threads for `-j`: what the user asked for, else the cores available — those the process may
 * use, less the load already on them (a busy machine gains nothing from more threads, and the
 * workers' own parse makes them a loss) — at most MAX_JOBS.
 */
export function jobCount(requested?: number): number {
  const available = requested ?? Math.floor(availableParallelism() - loadavg()[0]!);
  return Math.max(1, Math.min(available, MAX_JOBS));
}

/**
 * `-j <n>` (a positive number): that many threads, whatever the program's size; without it, the
 * cores available, for programs big enough to pay for the workers' parse.
 */
export function jobsOf(args: ParsedArgs): { jobs: number; shareMinFunctions?: number } {
  const text = valueOf(args, 'j');
  if (text === undefined) return { jobs: jobCount() };
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
