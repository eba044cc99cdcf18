/**
 * `sycl::queue` and `sycl::handler`, reduced to kernel submission: a command group holds at most
 * one kernel; the kernel is checked and launched when the command group function returns, and
 * every error is thrown synchronously from `submit` (or the shortcut).
 */
import type { Device } from './device.js';
import { SyclError, errc } from './errors.js';
import { isNdRange, isRange, ndRange, range as makeRange, type NdRange, type Range } from './ranges.js';
import type { KernelArg } from './kernel-args.js';
import type { KernelLaunch, Runtime } from './runtime.js';

/** What a submission produced: the kernel launch, or nothing for an empty command group. */
export interface Event {
  readonly launch: KernelLaunch | undefined;
}

type Action = { readonly kernel: string; readonly range: Range | NdRange | undefined; readonly args?: readonly KernelArg[] };

/** A range given as a Range, an NdRange, or plain sizes (`[1024]`, `[64, 64]`). */
export type RangeArgument = Range | NdRange | readonly number[];

function toRange(value: RangeArgument): Range | NdRange {
  if (isRange(value) || isNdRange(value)) return value;
  return makeRange(...(value as readonly number[]));
}

/** `sycl::handler`: records the one kernel of a command group. */
export class Handler {
  #action: Action | undefined;

  /** The kernel recorded so far (the runtime reads it when the command group function returns). */
  get action(): Action | undefined {
    return this.#action;
  }

  #set(action: Action): void {
    if (this.#action !== undefined) throw new SyclError(errc.invalid, 'Attempt to set multiple actions for the command group');
    this.#action = action;
  }

  /**
   * `parallel_for<kernel>(range | nd_range, ...)`. With `args` (in the order of the kernel's
   * parameters, see `kernelArg`) the kernel runs on the device; without, it is only built.
   */
  parallelFor(kernel: string, range: RangeArgument, args?: readonly KernelArg[]): void {
    this.#set({ kernel, range: toRange(range), ...(args === undefined ? {} : { args }) });
  }

  /** `parallel_for<kernel>(nd_range(global, local), ...)`. */
  parallelForNd(kernel: string, global: Range | readonly number[], local: Range | readonly number[], args?: readonly KernelArg[]): void {
    this.#set({ kernel, range: ndRange(global, local), ...(args === undefined ? {} : { args }) });
  }

  /** `single_task<kernel>(...)`. */
  singleTask(kernel: string, args?: readonly KernelArg[]): void {
    this.#set({ kernel, range: undefined, ...(args === undefined ? {} : { args }) });
  }
}

/** `sycl::queue` bound to one device. */
export class Queue {
  constructor(
    readonly runtime: Runtime,
    readonly device: Device,
  ) {}

  /** `queue::submit(cgf)`: runs the command group function, then launches its kernel. */
  submit(cgf: (handler: Handler) => void): Event {
    const handler = new Handler();
    cgf(handler);
    const action = handler.action;
    if (action === undefined) return { launch: undefined };
    return { launch: this.runtime.launch(action.kernel, this.device, action.range, action.args) };
  }

  /** `queue::parallel_for` shortcut. */
  parallelFor(kernel: string, range: RangeArgument, args?: readonly KernelArg[]): KernelLaunch {
    return this.submit((h) => h.parallelFor(kernel, range, args)).launch!;
  }

  /** `queue::single_task` shortcut. */
  singleTask(kernel: string, args?: readonly KernelArg[]): KernelLaunch {
    return this.submit((h) => h.singleTask(kernel, args)).launch!;
  }
}
