/**
 * Explanations as users read them: the call chain from a kernel to the use that makes it need an
 * aspect, in the format OptionalDeviceFeatures.md proposes for its warning ("use is from this call
 * chain", one function per line with the call's source location), then the use itself — the
 * instruction as `opt -S` prints it, the type that carries the aspect, and why that type does.
 */
import { demangle } from '@syclkit/aspect-propagation';
import { builtinAspectTable } from '@syclkit/device-config';
import { decodeCondition, deviceConfigConditionNames, formatCondition } from '@syclkit/device-if';
import { formatLoc, type AspectUse, type Explanation, type ProgramFacts } from './facts.js';

/** A function name as messages show it: demangled when possible (kernels keep their name). */
export function displayName(name: string): string {
  if (name.startsWith('_ZTS')) return name;
  return demangle(name) ?? name;
}

/** Name of an aspect value: the program's `!sycl_aspects` first, then the built-in table. */
export function aspectNameOf(facts: Pick<ProgramFacts, 'aspects'> | undefined, value: number): string {
  return facts?.aspects.find(([, v]) => v === value)?.[0] ?? builtinAspectTable.nameOf(value) ?? String(value);
}

/** An aspect given by name or number, read with the program's table, then the built-in one. */
export function aspectValueOf(facts: Pick<ProgramFacts, 'aspects'> | undefined, text: string): number | undefined {
  if (/^-?\d+$/.test(text)) return Number(text);
  return facts?.aspects.find(([name]) => name === text)?.[1] ?? builtinAspectTable.valueOf(text);
}

/** A Condition Expression as text (`fp16`, `arch(intel_gpu_pvc) && !fp64`), or its integers. */
export function conditionText(condition: readonly number[]): string {
  try {
    return formatCondition(decodeCondition(condition), deviceConfigConditionNames());
  } catch {
    return `[${condition.join(', ')}]`;
  }
}

/** Why the use needs the aspect, in words. */
export function useReason(use: AspectUse, aspect: string, functionName: string): string {
  const fn = `'${displayName(functionName)}'`;
  switch (use.kind) {
    case 'declared':
      return `${fn} is declared [[sycl::device_has(aspect::${aspect})]]`;
    case 'function-metadata':
      return `${fn} is marked [[sycl_detail::__uses_aspects__(aspect::${aspect})]] (its !sycl_used_aspects from the front end)`;
    case 'instruction-metadata':
      return `the instruction carries !sycl_used_aspects with '${aspect}'`;
    case 'signature':
      return `its signature has type '${use.type}', which uses '${aspect}'`;
    case 'instruction': {
      const text = use.text ?? '';
      if (use.type === 'double') {
        if (/= fpext float .* to double$/.test(text)) return "its type is 'double': a float promoted to double (in float code, a double literal such as 0.99 does this; write 0.99f)";
        if (/= (s|u)itofp .* to double$/.test(text)) return "its type is 'double': an integer converted to double";
        return "its type is 'double', which needs fp64";
      }
      return `its type '${use.type}' uses '${aspect}' (the type, or a type it contains, is marked [[sycl_detail::__uses_aspects__]])`;
    }
  }
}

function where(loc: Parameters<typeof formatLoc>[0]): string {
  return formatLoc(loc) ?? '(no source location: compile with -g)';
}

/** The explanation as text. */
export function formatExplanation(e: Explanation, facts: ProgramFacts): string {
  const aspect = aspectNameOf(facts, e.aspect);
  const lines: string[] = [];
  lines.push(`kernel '${e.kernel}' needs aspect '${aspect}'${e.conditional ? ' only where a device_if condition holds' : ''}; use is from this call chain:`);
  const names = [e.kernel, ...e.chain.map((s) => s.callee)];
  const width = Math.min(72, Math.max(...names.map((n) => displayName(n).length)));
  lines.push(`  ${displayName(e.kernel)}`);
  for (const step of e.chain) {
    const label = displayName(step.callee);
    const cond = step.condition === undefined ? '' : `  [device_if: ${conditionText(step.condition)}]`;
    lines.push(`  ${label.padEnd(width)}  ${where(step.location)}${cond}`);
  }
  const use = e.use;
  const place = formatLoc(use.location);
  const head = `${place === undefined ? '' : `${place}: `}'${displayName(e.function)}' (${e.unit}) uses '${aspect}' here`;
  lines.push(head + (use.text === undefined ? '' : ':'));
  if (use.text !== undefined) lines.push(`    ${use.text}`);
  lines.push(`  ${useReason(use, aspect, e.function)}`);
  if (use.count > 1) lines.push(`  ('${displayName(e.function)}' uses '${aspect}' ${use.count - 1} more time${use.count === 2 ? '' : 's'})`);
  return lines.join('\n') + '\n';
}

/** The explanation as JSON (stable keys). */
export function explanationJSON(e: Explanation, facts: ProgramFacts): unknown {
  return {
    kernel: e.kernel,
    aspect: { name: aspectNameOf(facts, e.aspect), value: e.aspect },
    conditional: e.conditional,
    chain: e.chain.map((s) => ({
      caller: s.caller,
      callee: s.callee,
      calleeDisplay: displayName(s.callee),
      location: s.location ?? null,
      ...(s.condition === undefined ? {} : { condition: s.condition, conditionText: conditionText(s.condition) }),
    })),
    use: {
      function: e.function,
      functionDisplay: displayName(e.function),
      unit: e.unit,
      kind: e.use.kind,
      instruction: e.use.text ?? null,
      type: e.use.type ?? null,
      location: e.use.location ?? null,
      uses: e.use.count,
      reason: useReason(e.use, aspectNameOf(facts, e.aspect), e.function),
    },
  };
}
