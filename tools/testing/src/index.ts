export { fcOptions, type PropertyTestOptions } from './fc-options.js';
