export const packageName = '@syclkit/device-config';
