/**
 * Tokens of the kernel's own registry entries: the kernel services plugins resolve
 * (by their refs' ids) and the values the kernel's classes are built from.
 */
export const kernelTokens = {
  config: 'kernel.config',
  logger: 'kernel.logger',
  instance: 'kernel.instance',
  database: 'kernel.database',
} as const;
