/**
 * Stub images: the same functions with bodies that only return (device_if stub add-on images,
 * the dummy images of virtual-function sets that need optional features).
 */
import { Argument, BasicBlock, Instruction, IRFunction, Module, type Value } from '@syclkit/ir';

/** A module with the header of `source` and an empty-bodied definition per `(function, name)`. */
export function stubModule(source: Module, functions: readonly (readonly [IRFunction, string])[]): { module: Module; stubs: IRFunction[] } {
  const module = new Module(source.id, source.context);
  module.sourceFilename = source.sourceFilename;
  module.dataLayout = source.dataLayout;
  module.triple = source.triple;
  module.typedPointers = source.typedPointers;
  const stubs: IRFunction[] = [];
  for (const [fn, name] of functions) {
    const stub = new IRFunction(name, fn.functionType, fn.type, fn.attributes);
    stub.callingConv = fn.callingConv;
    stub.visibility = fn.visibility;
    stub.unnamedAddr = fn.unnamedAddr;
    stub.args = fn.args.map((a) => new Argument(a.type, a.name, stub));
    const block = new BasicBlock('entry', stub, module.context.label);
    const ret = new Instruction('ret', module.context.void, fn.returnType.kind === 'void' ? [] : [module.context.zero(fn.returnType) as Value]);
    ret.parent = block;
    block.instructions.push(ret);
    stub.blocks = [block];
    module.addFunction(stub);
    stubs.push(stub);
  }
  return { module, stubs };
}
