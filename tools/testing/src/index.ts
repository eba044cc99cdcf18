export { fcOptions, type PropertyTestOptions } from './fc-options.js';
export { SPIRV_TOOLS, SPIRV_TOOLS_MISSING, SPIRV_VAL_ENV, spirvValErrors, type SpirvTools } from './spirv-tools.js';
