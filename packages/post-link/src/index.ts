export const packageName = '@syclkit/post-link';
