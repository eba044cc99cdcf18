import { describe, expect, it } from 'vitest';
import { parseModule, type MDNode, type Metadata } from '@syclkit/ir';
import { GlobalRefIndex } from './metadata-prune.js';

/** Whether `md` reaches a global, by a plain walk over every operand (the index's oracle). */
function reachesGlobal(md: Metadata, seen = new Set<Metadata>()): boolean {
  if (seen.has(md)) return false;
  seen.add(md);
  const value = (v: { vk: string; operands?: readonly unknown[]; elements?: readonly unknown[]; fields?: readonly unknown[] }): boolean => {
    switch (v.vk) {
      case 'function':
      case 'global':
      case 'alias':
      case 'ifunc':
      case 'blockaddress':
      case 'dso_local_equivalent':
      case 'no_cfi':
        return true;
      case 'expr':
        return (v.operands as (typeof v)[]).some(value);
      case 'array':
      case 'vector':
        return (v.elements as (typeof v)[]).some(value);
      case 'struct':
        return (v.fields as (typeof v)[]).some(value);
      default:
        return false;
    }
  };
  switch (md.mk) {
    case 'value':
      return value(md.value);
    case 'tuple':
      return md.operands.some((op) => op !== null && reachesGlobal(op, seen));
    case 'di':
      return [...md.fields.values()].some((f) => f.k === 'md' && f.v !== null && reachesGlobal(f.v, seen));
    case 'arglist':
      return md.args.some((a) => value(a.value));
    default:
      return false;
  }
}

const text = `
@g = global i32 0
@arr = global [2 x ptr] zeroinitializer

define void @f() {
  ret void
}

!named = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9, !10, !11, !12, !13, !14, !15, !16}

!0 = !{!"only strings", !"here"}
!1 = !{i32 1, i64 2, float 1.0, ptr null, [2 x i32] zeroinitializer, i32 undef, i32 poison}
!2 = !{ptr @g}
!3 = !{!"a", !2}
!4 = !{!0, !1}
!5 = !{ptr getelementptr (i8, ptr @g, i64 4)}
!6 = !{[2 x ptr] [ptr @f, ptr null]}
!7 = !{{ i32, ptr } { i32 1, ptr @arr }}
!8 = distinct !{!8, !"cycle without globals"}
!9 = distinct !{!10, !"cycle reaching a global"}
!10 = !{!9, !2}
!11 = !DIFile(filename: "a.cpp", directory: "/")
!12 = distinct !{!13, !2}
!13 = !{!12}
!14 = distinct !{!15, !16}
!15 = !{!14, !"the cycle's global comes after the node that closes it"}
!16 = !{!17}
!17 = !{ptr @f}
`;

describe('GlobalRefIndex', () => {
  it('tells which nodes reach a global, as a plain walk does, leaves and cycles included', () => {
    const m = parseModule(text, { filename: 'md.ll' });
    const nodes = m.getNamedMetadata('named')!;
    const index = new GlobalRefIndex();
    const answers = nodes.map((n) => index.refersToGlobals(n));
    expect(answers).toEqual([false, false, true, true, false, true, true, true, false, true, true, false, true, true, true, true, true]);
    expect(answers).toEqual(nodes.map((n) => reachesGlobal(n)));
    // every operand too, asked directly (leaves are not memoized) and again (memoized nodes)
    for (const node of nodes as MDNode[]) {
      if (node.mk !== 'tuple') continue;
      for (const op of node.operands) if (op !== null) expect(index.refersToGlobals(op)).toBe(reachesGlobal(op));
    }
    expect(nodes.map((n) => index.refersToGlobals(n))).toEqual(answers);
  });

  it('answers every node of a cycle once the cycle is done, whichever node is asked first', () => {
    const m = parseModule(text, { filename: 'md.ll' });
    const nodes = m.getNamedMetadata('named')!;
    // entering !12's cycle at !12 once made !13 (which closes it) "reaches nothing" for good
    for (const first of [12, 13, 14, 15]) {
      const index = new GlobalRefIndex();
      index.refersToGlobals(nodes[first]!);
      for (const n of nodes) expect(index.refersToGlobals(n)).toBe(reachesGlobal(n));
    }
  });
});
