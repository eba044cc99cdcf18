export const packageName = '@syclkit/runtime';
