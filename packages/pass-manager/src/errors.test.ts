import { describe, expect, it } from 'vitest';
import { FlagError, PassCrashError, PipelineError } from './index.js';

describe('PipelineError', () => {
  it('renders file:line:col, the message and a caret under the culprit', () => {
    const error = new PipelineError("unknown pass 'fo'", 'a,fo,b', 2, 2, '-passes');
    expect(error.render()).toBe("-passes:1:3: error: unknown pass 'fo'\na,fo,b\n  ^~\n");
    expect(error.position).toEqual({ line: 1, column: 3 });
  });

  it('points at the right line of multi-line text and at the end of the text', () => {
    const error = new PipelineError('expected a pass name', 'a,\nb,', 5, 1);
    expect(error.position).toEqual({ line: 2, column: 3 });
    expect(error.render()).toBe('pipeline:2:3: error: expected a pass name\nb,\n  ^\n');
  });

  it('never underlines past the end of the line', () => {
    expect(new PipelineError('m', 'abc', 2, 10).render().split('\n')[2]).toBe('  ^');
  });
});

describe('FlagError and PassCrashError', () => {
  it('render or describe themselves without a stack trace', () => {
    expect(new FlagError("unknown flag '-x'", 'x').render()).toBe("error: unknown flag '-x'\n");
    const crash = new PassCrashError('split', 'kernel', new Error('boom'));
    expect(crash.message).toBe("pass 'split' crashed on 'kernel': boom");
    expect(crash.pass).toBe('split');
  });
});
