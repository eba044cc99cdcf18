export const toolName = 'conformance';
