export const toolName = 'bench';
