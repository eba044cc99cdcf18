export const packageName = '@syclkit/device-if';
