export const packageName = '@syclkit/pass-manager';
