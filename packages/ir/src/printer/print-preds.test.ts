/**
 * The `; preds =` comments, which the walk that numbers a function's slots collects from the
 * terminators it meets: predecessors in reverse order of their terminators' uses, a block once per
 * edge, as opt -S prints them (this text is its own output).
 */
import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { printModule } from './printer.js';

const SOURCE = `; ModuleID = 'preds.ll'
source_filename = "preds.ll"

define i32 @f(i32 %x, i1 %c) {
entry:
  br i1 %c, label %a, label %b

a:                                                ; preds = %entry
  switch i32 %x, label %b [
    i32 1, label %join
    i32 2, label %join
    i32 3, label %a2
  ]

a2:                                               ; preds = %a
  br i1 %c, label %join, label %join

b:                                                ; preds = %a, %entry
  br label %join

join:                                             ; preds = %b, %a2, %a2, %a, %a
  %r = phi i32 [ 1, %a ], [ 1, %a ], [ 2, %a2 ], [ 2, %a2 ], [ 3, %b ]
  ret i32 %r

dead:                                             ; No predecessors!
  ret i32 0
}
`;

describe('predecessor comments', () => {
  it('list each edge, in reverse order of the terminators that use the block, and say when there are none', () => {
    expect(printModule(parseModule(SOURCE, { filename: 'preds.ll' }))).toBe(SOURCE);
  });
});
