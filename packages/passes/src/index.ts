export { builtinPasses, builtinAnalyses, builtinPresets, builtinRegistry, offloadPipelineText, offloadImagesText } from './registry.js';
export type { OffloadPipelineOptions } from './registry.js';
export { globalDcePass, unusedGlobalsAnalysis, noteNoUnusedGlobals } from './globaldce.js';
export { aotPass, AOT_COMPILERS, AOT_JOBS, COMPILED, COMPILING, IMAGE_PREFIXES, imageName, definesNothing, aotFailure } from './aot.js';
export { wrapPass, CONTAINER } from './wrap.js';
export type { ImageContainer } from './wrap.js';
export { explainFactsPass, EXPLAIN_FACTS } from './image-property.js';
export type { ImageFactsSource } from './image-property.js';
