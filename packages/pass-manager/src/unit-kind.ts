/**
 * A unit kind tells the pass manager what it needs to know about one kind of IR unit (a module,
 * a function in a module, a set of device images) without the manager depending on the IR.
 * The IR package supplies the adapters; tests use small toy units.
 */
import type { PassContext } from './pass.js';

export interface UnitKind<U extends object> {
  /** Kebab-case name. It is also the name of the adaptor that runs a nested pipeline over units
   * of this kind, as in `function(...)`. */
  readonly name: string;
  /** A string that changes whenever the unit changes (a hash or a canonical print). Only called by
   * instrumentation (`verifyAnalysisInvalidation`), never on the normal path. */
  fingerprint(unit: U): string;
  /** Text form of the unit for `printAfterAll` (e.g. LLVM assembly). */
  print(unit: U): string;
  /** Throws an Error describing the first problem when the unit is malformed. */
  verify?(unit: U): void;
  /** A short name for messages and traces, e.g. a function name (default: the kind name). */
  label?(unit: U): string;
  /** Kinds of units nested in this one, each with how to enumerate them (module → functions). */
  readonly subunits?: readonly Subunits<U>[];
}

/** How a unit kind enumerates the units of an inner kind, for adaptors such as `function(...)`. */
export interface Subunits<U extends object> {
  readonly kind: UnitKind<object>;
  /** Sub-units in a stable order; the adaptor runs the inner pipeline over each in turn. */
  enumerate(unit: U): Iterable<object>;
  /**
   * Called by the adaptor after the nested pipeline ran over every sub-unit: work passes left to
   * complete later finishes here (a set of device images waits for the AOT compilations still
   * running and writes their images). A promise is awaited (asynchronous pipelines only). `ctx`
   * is the adaptor's: diagnostics reported there stop the pipeline as a pass's would.
   */
  finish?(unit: U, ctx: PassContext<U>): void | Promise<void>;
}

/**
 * Declares how `outer` enumerates units of `inner`, keeping the element type checked.
 * The result goes in `outer.subunits`.
 */
export function subunitsOf<U extends object, I extends object>(
  inner: UnitKind<I>,
  enumerate: (unit: U) => Iterable<I>,
  finish?: (unit: U, ctx: PassContext<U>) => void | Promise<void>,
): Subunits<U> {
  return { kind: inner as unknown as UnitKind<object>, enumerate, ...(finish === undefined ? {} : { finish }) };
}

export function labelOf<U extends object>(kind: UnitKind<U>, unit: U): string {
  return kind.label ? kind.label(unit) : kind.name;
}
