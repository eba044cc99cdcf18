export const packageName = '@syclkit/formats';
