import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareCommands, describeFailure, substitute, type CommandSpec, type Runner, type RunOutcome } from './harness.js';

/** A runner that plays back scripted outcomes per command (keyed by argv[0]) and records the calls. */
function scripted(script: Record<string, Partial<RunOutcome>[]>): { runner: Runner; calls: string[][] } {
  const calls: string[][] = [];
  const next = new Map<string, number>();
  const runner: Runner = async (argv) => {
    calls.push([...argv]);
    const key = argv[0]!;
    const i = next.get(key) ?? 0;
    next.set(key, i + 1);
    const o = script[key]![Math.min(i, script[key]!.length - 1)]!;
    return { wallMs: 0, exitCode: 0, signal: null, maxRssKb: null, cpuMs: null, stderrTail: '', ...o };
  };
  return { runner, calls };
}

const ours: CommandSpec = { label: 'ours', argv: ['ours', '{input}'] };
const llvm: CommandSpec = { label: 'llvm', argv: ['llvm', '{input}'] };

describe('compareCommands', () => {
  it('runs the commands alternately, warm-up rounds first', async () => {
    const { runner, calls } = scripted({ ours: [{ wallMs: 1 }], llvm: [{ wallMs: 1 }] });
    await compareCommands([ours, llvm], 'in.ll', runner, { runs: 2, warmup: 1, timeoutMs: 1000 });
    expect(calls.map((c) => c[0])).toEqual(['ours', 'llvm', 'ours', 'llvm', 'ours', 'llvm']);
  });

  it('leaves warm-up times out and reports median time and the median of per-round ratios', async () => {
    const { runner } = scripted({
      ours: [{ wallMs: 9999 }, { wallMs: 300 }, { wallMs: 200 }, { wallMs: 500 }],
      llvm: [{ wallMs: 1 }, { wallMs: 100 }, { wallMs: 100 }, { wallMs: 100 }],
    });
    const r = await compareCommands([ours, llvm], 'in.ll', runner, { runs: 3, warmup: 1, timeoutMs: 1000 });
    expect(r.commands[0]!.timesMs).toEqual([300, 200, 500]);
    expect(r.commands[0]!.time.median).toBe(300);
    expect(r.commands[1]!.time.median).toBe(100);
    expect(r.ratios).toEqual([{ candidate: 'ours', baseline: 'llvm', median: 3, ratios: [3, 2, 5], cpuMedian: null }]);
  });

  it('uses the last command as the baseline unless told otherwise', async () => {
    const { runner } = scripted({ ours: [{ wallMs: 200 }], llvm: [{ wallMs: 100 }] });
    const byDefault = await compareCommands([ours, llvm], 'x', runner, { runs: 1, warmup: 0, timeoutMs: 1000 });
    expect(byDefault.ratios[0]).toMatchObject({ candidate: 'ours', baseline: 'llvm', median: 2 });
    const swapped = await compareCommands([ours, llvm], 'x', runner, { runs: 1, warmup: 0, timeoutMs: 1000, baseline: 0 });
    expect(swapped.ratios[0]).toMatchObject({ candidate: 'llvm', baseline: 'ours', median: 0.5 });
  });

  it('reports a command that fails in warm-up without stopping the others', async () => {
    const { runner, calls } = scripted({
      ours: [{ exitCode: 1, stderrTail: "syclkit: error: unknown command 'opt'\n" }],
      llvm: [{ wallMs: 100 }],
    });
    const r = await compareCommands([ours, llvm], 'x', runner, { runs: 2, warmup: 1, timeoutMs: 1000 });
    expect(r.commands[0]!.failure).toEqual({ phase: 'warm-up', round: 1, message: "exit 1: syclkit: error: unknown command 'opt'" });
    expect(calls.filter((c) => c[0] === 'ours')).toHaveLength(1);
    expect(r.commands[1]!.timesMs).toEqual([100, 100]);
    expect(r.ratios[0]).toMatchObject({ median: null, note: 'ours failed' });
  });

  it('accepts the exit statuses a command names as success, and only those', async () => {
    const { runner } = scripted({ ours: [{ wallMs: 5, exitCode: 1 }], llvm: [{ wallMs: 5, exitCode: 2 }] });
    const answering: CommandSpec = { ...ours, exitCodes: [0, 1] };
    const strict: CommandSpec = { ...llvm, exitCodes: [0, 1] };
    const r = await compareCommands([answering, strict], 'x', runner, { runs: 1, warmup: 0, timeoutMs: 1000 });
    expect(r.commands[0]!.failure).toBeUndefined();
    expect(r.commands[1]!.failure).toMatchObject({ message: 'exit 2' });
  });

  it('counts a run whose verify check fails as a failure', async () => {
    const { runner } = scripted({ ours: [{ wallMs: 5 }], llvm: [{ wallMs: 5 }] });
    const checked: CommandSpec = { ...ours, verify: () => 'no file table' };
    const r = await compareCommands([checked, llvm], 'x', runner, { runs: 1, warmup: 0, timeoutMs: 1000 });
    expect(r.commands[0]!.failure).toMatchObject({ phase: 'measured', message: 'no file table' });
  });

  it('substitutes {input} and a fresh {tmp} directory that exists during the run and is removed after', async () => {
    const seen: { tmp: string; existed: boolean }[] = [];
    const runner: Runner = async (argv) => {
      const tmp = argv[2]!.replace(/\/out$/, '');
      seen.push({ tmp, existed: existsSync(tmp) });
      expect(argv[1]).toBe('in.ll');
      return { wallMs: 1, exitCode: 0, signal: null, maxRssKb: 10, cpuMs: 1, stderrTail: '' };
    };
    const cmd = (label: string): CommandSpec => ({ label, argv: [label, '{input}', '{tmp}/out'] });
    await compareCommands([cmd('a'), cmd('b')], 'in.ll', runner, { runs: 1, warmup: 0, timeoutMs: 1000 });
    expect(seen.every((s) => s.existed)).toBe(true);
    expect(new Set(seen.map((s) => s.tmp)).size).toBe(2);
    expect(seen.some((s) => existsSync(s.tmp))).toBe(false);
  });

  it('reports median and peak max RSS, or null when not measured', async () => {
    const { runner } = scripted({ ours: [{ wallMs: 1, maxRssKb: 300 }, { wallMs: 1, maxRssKb: 100 }, { wallMs: 1, maxRssKb: 200 }], llvm: [{ wallMs: 1 }] });
    const r = await compareCommands([ours, llvm], 'x', runner, { runs: 3, warmup: 0, timeoutMs: 1000 });
    expect(r.commands[0]).toMatchObject({ medianMaxRssKb: 200, peakMaxRssKb: 300 });
    expect(r.commands[1]).toMatchObject({ medianMaxRssKb: null, peakMaxRssKb: null });
  });

  it('reports median CPU time and the median of per-round CPU ratios beside the wall-time ratio', async () => {
    const { runner } = scripted({
      ours: [{ wallMs: 9, cpuMs: 9999 }, { wallMs: 200, cpuMs: 300 }, { wallMs: 200, cpuMs: 600 }, { wallMs: 200, cpuMs: 450 }],
      llvm: [{ wallMs: 1, cpuMs: 1 }, { wallMs: 100, cpuMs: 100 }, { wallMs: 100, cpuMs: 100 }, { wallMs: 100, cpuMs: 150 }],
    });
    const r = await compareCommands([ours, llvm], 'x', runner, { runs: 3, warmup: 1, timeoutMs: 1000 });
    expect(r.commands[0]).toMatchObject({ cpuMs: [300, 600, 450], cpu: { median: 450, min: 300, max: 600 } });
    expect(r.ratios[0]).toMatchObject({ median: 2, ratios: [2, 2, 2], cpuMedian: 3 });
  });

  it('gives no CPU ratio when a command has no CPU time for some round (rounds would be mispaired)', async () => {
    const { runner } = scripted({ ours: [{ wallMs: 2, cpuMs: 4 }, { wallMs: 2, cpuMs: null }], llvm: [{ wallMs: 1, cpuMs: 1 }] });
    const r = await compareCommands([ours, llvm], 'x', runner, { runs: 2, warmup: 0, timeoutMs: 1000 });
    expect(r.commands[0]!.cpuMs).toEqual([4]);
    expect(r.ratios[0]).toMatchObject({ median: 2, cpuMedian: null });
    const none = await compareCommands([ours, llvm], 'x', scripted({ ours: [{ wallMs: 2 }], llvm: [{ wallMs: 1 }] }).runner, { runs: 1, warmup: 0, timeoutMs: 1000 });
    expect(none.commands[0]!.cpu).toBeNull();
    expect(none.ratios[0]!.cpuMedian).toBeNull();
  });

  it('rejects fewer than two commands and zero runs', async () => {
    const { runner } = scripted({ ours: [{}] });
    await expect(compareCommands([ours], 'x', runner, { runs: 1, warmup: 0, timeoutMs: 1 })).rejects.toThrow(/two commands/);
    await expect(compareCommands([ours, llvm], 'x', runner, { runs: 0, warmup: 0, timeoutMs: 1 })).rejects.toThrow(/runs/);
  });
});

describe('substitute', () => {
  it('replaces every placeholder occurrence inside arguments', () => {
    expect(substitute(['-o', '{tmp}/a', '{input}', '--x={input}'], { input: 'm.ll', tmp: '/t' })).toEqual(['-o', '/t/a', 'm.ll', '--x=m.ll']);
  });
});

describe('describeFailure', () => {
  it('names the exit status or signal and the last stderr lines', () => {
    const base = { wallMs: 0, maxRssKb: null, cpuMs: null };
    expect(describeFailure({ ...base, exitCode: 2, signal: null, stderrTail: 'a\nb\nc\nd\n' })).toBe('exit 2: b | c | d');
    expect(describeFailure({ ...base, exitCode: null, signal: 'SIGKILL', stderrTail: '' })).toBe('killed by SIGKILL');
    expect(describeFailure({ ...base, exitCode: null, signal: null, stderrTail: '', error: 'command not found: x' })).toBe('command not found: x');
  });
});
