/**
 * The pass manager: runs a sequence of passes over a unit, invalidates analyses by what each pass
 * preserved, runs nested pipelines through adaptors, collects diagnostics and calls
 * instrumentation. With no instrumentation the per-pass cost is constant: no fingerprints, no
 * clocks, nothing proportional to the unit.
 */
import { AnalysisManager, INTERNAL, type Analysis, type AnalysisEvent, type AnalysisGetter } from './analysis.js';
import {
  applyPolicy,
  isDiagnosticCode,
  passManagerDiagnostics,
  type Diagnostic,
  type DiagnosticInput,
  type DiagnosticPolicy,
  type SourceLocation,
} from './diagnostics.js';
import { PassCrashError } from './errors.js';
import type { ParentUnit, Pass, PassContext } from './pass.js';
import { allAnalysesOn, PreservedAnalyses } from './preserved.js';
import { labelOf, type Subunits, type UnitKind } from './unit-kind.js';

/** What instrumentation sees of one pass run. */
export interface PassEvent {
  readonly pass: string;
  /** Canonical text of the pass with its options, e.g. `split<per-kernel>`. */
  readonly text: string;
  readonly unit: object;
  readonly kind: UnitKind<object>;
  /** Adaptors (`function(...)`) only run other passes; most instrumentation skips them. */
  readonly adaptor: boolean;
  /** Nesting depth: 0 for the top-level pipeline. */
  readonly depth: number;
  /** Records a diagnostic on behalf of the pass (e.g. a verifier failure). */
  report(diagnostic: DiagnosticInput): void;
}

/** Hooks around passes and analyses (LLVM `PassInstrumentationCallbacks`). */
export interface Instrumentation {
  readonly name: string;
  beforePass?(event: PassEvent): void;
  afterPass?(event: PassEvent, preserved: PreservedAnalyses): void;
  /** The pass threw or a fatal diagnostic stopped it. */
  afterPassFailed?(event: PassEvent): void;
  analysis?(event: AnalysisEvent): void;
}

export interface RunOptions {
  /** Reuse an analysis manager across runs (default: a fresh one per run). */
  readonly analyses?: AnalysisManager;
  readonly instrumentations?: readonly Instrumentation[];
  /** The user's severity overrides and -Werror. */
  readonly policy?: DiagnosticPolicy;
  /** Stamped on diagnostics that have no file of their own (vfile: messages belong to the file). */
  readonly file?: string;
  /**
   * Called with each diagnostic as it is recorded (after the policy), while the run goes on: for
   * progress displays, or to tell which sub-unit was being processed when it came.
   */
  readonly onDiagnostic?: (diagnostic: Diagnostic) => void;
}

export interface RunResult {
  /** In emission order, which is deterministic when passes are. */
  readonly diagnostics: readonly Diagnostic[];
  /** What the whole pipeline preserved (`none()` when it stopped). */
  readonly preserved: PreservedAnalyses;
  /** A fatal diagnostic stopped the pipeline. */
  readonly stopped: boolean;
  readonly errorCount: number;
  readonly warningCount: number;
}

/** Thrown through passes to stop the pipeline after a fatal diagnostic was recorded. */
class FatalStop extends Error {
  override readonly name = 'FatalStop';
}

const MANAGER_CODES: ReadonlySet<string> = new Set(Object.keys(passManagerDiagnostics));

class RunState {
  readonly diagnostics: Diagnostic[] = [];
  errorCount = 0;
  warningCount = 0;
  readonly before: Instrumentation[];
  readonly after: Instrumentation[];
  readonly failed: Instrumentation[];
  readonly instrumented: boolean;
  /** Set by a fatal diagnostic, so a pass that swallows the stop signal still stops the run. */
  stopped = false;

  constructor(
    readonly analyses: AnalysisManager,
    readonly instrumentations: readonly Instrumentation[],
    readonly policy: DiagnosticPolicy | undefined,
    readonly file: string | undefined,
    /** `runAsync`: passes may return promises. */
    readonly asynchronous: boolean,
    readonly onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined,
  ) {
    this.before = instrumentations.filter((i) => i.beforePass !== undefined);
    this.after = instrumentations.filter((i) => i.afterPass !== undefined);
    this.failed = instrumentations.filter((i) => i.afterPassFailed !== undefined);
    this.instrumented = this.before.length + this.after.length + this.failed.length > 0;
  }

  /** Applies defaults and the policy, keeps the diagnostic, and stops the run if it is fatal. */
  record(input: DiagnosticInput, pass: Pass<object>): void {
    const { code } = input;
    if (!isDiagnosticCode(code)) throw new TypeError(`pass '${pass.name}' reported diagnostic code '${code}', which is not kebab-case`);
    const catalog = pass.diagnostics;
    const declared = catalog !== undefined && Object.hasOwn(catalog, code) ? catalog[code] : undefined;
    if (catalog !== undefined && declared === undefined && !MANAGER_CODES.has(code)) {
      throw new TypeError(`pass '${pass.name}' reported diagnostic code '${code}', which its declaration does not list`);
    }
    const fatal = input.fatal === true;
    const severity = fatal ? 'error' : (input.severity ?? declared?.severity ?? 'warning');
    const location = this.#withFile(input.location);
    const diagnostic = applyPolicy(
      {
        severity,
        code,
        message: input.message,
        pass: pass.name,
        ...(location !== undefined && { location }),
        notes: input.notes ?? [],
        fatal,
      },
      this.policy,
    );
    if (diagnostic === undefined) return;
    this.diagnostics.push(diagnostic);
    this.onDiagnostic?.(diagnostic);
    if (diagnostic.severity === 'error') this.errorCount++;
    else if (diagnostic.severity === 'warning') this.warningCount++;
    if (diagnostic.fatal) {
      this.stopped = true;
      throw new FatalStop(diagnostic.message);
    }
  }

  #withFile(location: SourceLocation | undefined): SourceLocation | undefined {
    if (this.file === undefined || location?.file !== undefined || location?.debugLoc?.file !== undefined) return location;
    return { ...location, file: this.file };
  }
}

/** The context a pass runs with; adaptors use it to reach the run state. */
class Context<U extends object> implements PassContext<U> {
  #analyses: AnalysisGetter | undefined;

  constructor(
    readonly passObject: Pass<U>,
    readonly unit: U,
    readonly kind: UnitKind<U>,
    readonly parent: ParentUnit | undefined,
    readonly state: RunState,
    readonly depth: number,
  ) {}

  get pass(): string {
    return this.passObject.name;
  }

  get analyses(): AnalysisGetter {
    // Made on first use: most passes on most units never ask.
    return (this.#analyses ??= this.#makeGetter());
  }

  report(diagnostic: DiagnosticInput): void {
    this.state.record(diagnostic, this.passObject as Pass<object>);
  }

  fail(diagnostic: DiagnosticInput): never {
    this.state.record({ ...diagnostic, fatal: true }, this.passObject as Pass<object>);
    throw new FatalStop(diagnostic.message);
  }

  #makeGetter(): AnalysisGetter {
    const internals = this.state.analyses[INTERNAL];
    const caller = { unit: this.unit, kind: this.kind as UnitKind<object> };
    return {
      getResult: <V extends object, R>(analysis: Analysis<V, R>, unit: V): R => {
        for (let p = this.parent; p !== undefined; p = p.parent) {
          if (p.unit === unit) {
            throw new Error(
              `pass '${this.pass}' on ${this.kind.name} '${labelOf(this.kind, this.unit)}' asked to compute ${p.kind.name} analysis ` +
                `'${analysis.name}'; passes inside an adaptor may only read cached results of enclosing units (getCachedResult)`,
            );
          }
        }
        return internals.getResult(caller, analysis, unit);
      },
      getCachedResult: <V extends object, R>(analysis: Analysis<V, R>, unit: V): R | undefined =>
        internals.getCachedResult(caller, analysis, unit),
    };
  }
}

/** `then`-able: a pass (or nested pipeline) that finishes later. */
function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs `passes` over `unit` from `start`. Synchronous while every pass is; from the first pass
 * that returns a promise on, the rest runs when it settles (so synchronous pipelines pay nothing
 * for the asynchronous case).
 */
function runPasses<U extends object>(
  passes: readonly Pass<U>[],
  unit: U,
  kind: UnitKind<U>,
  parent: ParentUnit | undefined,
  state: RunState,
  depth: number,
  start = 0,
  preservedSoFar: PreservedAnalyses = PreservedAnalyses.all(),
): PreservedAnalyses | Promise<PreservedAnalyses> {
  let preserved = preservedSoFar;
  for (let i = start; i < passes.length; i++) {
    const pass = passes[i]!;
    const ctx = new Context(pass, unit, kind, parent, state, depth);
    const event = state.instrumented ? passEvent(pass, unit, kind, depth, state) : undefined;
    let result: PreservedAnalyses | Promise<PreservedAnalyses>;
    try {
      if (event !== undefined) for (const hook of state.before) hook.beforePass!(event);
      result = pass.run(unit, ctx);
    } catch (error) {
      throw passFailed(error, pass, unit, kind, state, event);
    }
    if (isPromise(result)) {
      if (!state.asynchronous) {
        result.catch(() => undefined);
        throw passFailed(new TypeError(`pass '${pass.name}' is asynchronous; run the pipeline with runAsync()`), pass, unit, kind, state, event);
      }
      return result.then(
        (settled) => {
          const next = preserved.intersect(passDone(settled, pass, unit, kind, state, event));
          return runPasses(passes, unit, kind, parent, state, depth, i + 1, next);
        },
        (error: unknown) => {
          throw passFailed(error, pass, unit, kind, state, event);
        },
      );
    }
    preserved = preserved.intersect(passDone(result, pass, unit, kind, state, event));
  }
  return preserved;
}

/** Checks a pass's result, invalidates by it and calls the after-hooks. */
function passDone<U extends object>(result: unknown, pass: Pass<U>, unit: U, kind: UnitKind<U>, state: RunState, event: PassEvent | undefined): PreservedAnalyses {
  try {
    if (state.stopped) throw new FatalStop('stopped by a fatal diagnostic');
    if (!(result instanceof PreservedAnalyses)) throw new TypeError('run() must return PreservedAnalyses');
  } catch (error) {
    throw passFailed(error, pass, unit, kind, state, event);
  }
  state.analyses.invalidate(unit, result);
  if (event !== undefined) runAfterHooks(state, event, result);
  return result;
}

/** The error to rethrow for a pass that threw or stopped; the unit's cached results are dropped. */
function passFailed<U extends object>(error: unknown, pass: Pass<U>, unit: U, kind: UnitKind<U>, state: RunState, event: PassEvent | undefined): unknown {
  // The unit may be half-changed: nothing cached on it can be trusted any more.
  state.analyses.invalidate(unit, PreservedAnalyses.none());
  if (event !== undefined) for (const hook of state.failed) hook.afterPassFailed!(event);
  if (error instanceof FatalStop || error instanceof PassCrashError) return error;
  return new PassCrashError(pass.name, labelOf(kind, unit), error);
}

/** Every after-hook runs even when one stops the run (so timers and stacks stay balanced). */
function runAfterHooks(state: RunState, event: PassEvent, result: PreservedAnalyses): void {
  let stop: FatalStop | undefined;
  for (const i of state.after) {
    try {
      i.afterPass!(event, result);
    } catch (error) {
      if (!(error instanceof FatalStop)) throw error;
      stop ??= error;
    }
  }
  if (stop !== undefined) throw stop;
}

function passEvent<U extends object>(pass: Pass<U>, unit: U, kind: UnitKind<U>, depth: number, state: RunState): PassEvent {
  return {
    pass: pass.name,
    text: pass.text ?? pass.name,
    unit,
    kind: kind as UnitKind<object>,
    adaptor: pass.adaptor === true,
    depth,
    report: (diagnostic) => state.record(diagnostic, pass as Pass<object>),
  };
}

/** A sequence of passes over one unit kind, ready to run. */
export class Pipeline<U extends object> {
  constructor(
    readonly unit: UnitKind<U>,
    readonly passes: readonly Pass<U>[],
  ) {
    for (const pass of passes) {
      if (pass.unit.name !== unit.name) {
        throw new TypeError(`pass '${pass.name}' runs on ${pass.unit.name} units; this pipeline runs on ${unit.name} units`);
      }
    }
  }

  /** Canonical pipeline text (what `--print-pipeline` shows). */
  get text(): string {
    return this.passes.map((p) => p.text ?? p.name).join(',');
  }

  /** Runs the pipeline; every pass must finish synchronously (see {@link runAsync}). */
  run(unit: U, options: RunOptions = {}): RunResult {
    const { state, stopObserving } = this.#start(options, false);
    try {
      const preserved = runPasses(this.passes, unit, this.unit, undefined, state, 0) as PreservedAnalyses;
      return resultOf(state, preserved, false);
    } catch (error) {
      if (!(error instanceof FatalStop)) throw error;
      return resultOf(state, PreservedAnalyses.none(), true);
    } finally {
      stopObserving?.();
    }
  }

  /**
   * Runs the pipeline where passes may return promises (tools that wait for other processes, such
   * as an AOT compiler). Passes still run one at a time, in order; a pipeline of synchronous
   * passes runs exactly as with {@link run}.
   */
  async runAsync(unit: U, options: RunOptions = {}): Promise<RunResult> {
    const { state, stopObserving } = this.#start(options, true);
    try {
      const preserved = await runPasses(this.passes, unit, this.unit, undefined, state, 0);
      return resultOf(state, preserved, false);
    } catch (error) {
      if (!(error instanceof FatalStop)) throw error;
      return resultOf(state, PreservedAnalyses.none(), true);
    } finally {
      stopObserving?.();
    }
  }

  #start(options: RunOptions, asynchronous: boolean): { state: RunState; stopObserving: (() => void) | undefined } {
    const analyses = options.analyses ?? new AnalysisManager();
    const instrumentations = options.instrumentations ?? [];
    const state = new RunState(analyses, instrumentations, options.policy, options.file, asynchronous, options.onDiagnostic);
    const listeners = instrumentations.filter((i) => i.analysis !== undefined);
    const stopObserving =
      listeners.length === 0 ? undefined : analyses[INTERNAL].observe((event) => listeners.forEach((i) => i.analysis!(event)));
    return { state, stopObserving };
  }
}

function resultOf(state: RunState, preserved: PreservedAnalyses, stopped: boolean): RunResult {
  return { diagnostics: state.diagnostics, preserved, stopped, errorCount: state.errorCount, warningCount: state.warningCount };
}

/** A pipeline from passes (the programmatic way; the registry builds the same from text). */
export function createPipeline<U extends object>(unit: UnitKind<U>, passes: readonly Pass<U>[]): Pipeline<U> {
  return new Pipeline(unit, passes);
}

/**
 * An adaptor pass: runs `passes` over every sub-unit of kind `inner` that `outer` enumerates
 * (LLVM `createModuleToFunctionPassAdaptor`). Its text is `inner(...)`.
 */
export function createAdaptor<O extends object, I extends object>(
  outer: UnitKind<O>,
  inner: UnitKind<I>,
  passes: readonly Pass<I>[],
): Pass<O> {
  const subunits = outer.subunits?.find((s) => s.kind.name === inner.name) as Subunits<O> | undefined;
  if (subunits === undefined) throw new TypeError(`${outer.name} units have no ${inner.name} sub-units`);
  for (const pass of passes) {
    if (pass.unit.name !== inner.name) throw new TypeError(`pass '${pass.name}' runs on ${pass.unit.name} units, not ${inner.name} units`);
  }
  return {
    name: inner.name,
    unit: outer,
    text: `${inner.name}(${passes.map((p) => p.text ?? p.name).join(',')})`,
    adaptor: true,
    run(unit, ctx) {
      if (!(ctx instanceof Context)) throw new TypeError(`adaptor '${inner.name}' can only run inside a pipeline`);
      const { state } = ctx;
      const internals = state.analyses[INTERNAL];
      const parent: ParentUnit = { unit, kind: outer as UnitKind<object>, parent: ctx.parent };
      const children = subunits.enumerate(unit)[Symbol.iterator]();
      // Every sub-unit is invalidated pass by pass, so its analyses are accounted for.
      const done = (preserved: PreservedAnalyses): PreservedAnalyses => preserved.preserveSet(allAnalysesOn(inner.name));
      const afterChild = (child: object): void => {
        // Only children with cached results need to be reachable from the parent's invalidation.
        if (internals.hasState(child)) internals.noteSubunit(unit, inner.name, child);
      };
      const loop = (preservedSoFar: PreservedAnalyses): PreservedAnalyses | Promise<PreservedAnalyses> => {
        let preserved = preservedSoFar;
        for (let next = children.next(); next.done !== true; next = children.next()) {
          const child = next.value;
          const childPreserved = runPasses(passes, child as I, inner, parent, state, ctx.depth + 1);
          if (isPromise(childPreserved)) {
            return childPreserved.then((settled) => {
              afterChild(child);
              return loop(preserved.intersect(settled));
            });
          }
          afterChild(child);
          preserved = preserved.intersect(childPreserved);
        }
        // Work the sub-units left to finish after their passes (see Subunits.finish).
        const finished = subunits.finish?.(unit, ctx);
        return isPromise(finished) ? finished.then(() => done(preserved)) : done(preserved);
      };
      return loop(PreservedAnalyses.all());
    },
  };
}
