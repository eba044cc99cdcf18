export const packageName = '@syclkit/aspect-propagation';
