export const packageName = '@syclkit/ir';
