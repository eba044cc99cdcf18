export const packageName = '@syclkit/offload-wrapper';
