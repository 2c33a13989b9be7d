/** A typed name for a service that a plugin provides and others resolve. */
export interface ServiceRef<T> {
  readonly id: string;
  /** Phantom field carrying the service type. */
  readonly $type?: T;
}

export function createServiceRef<T>(id: string): ServiceRef<T> {
  if (!/^[a-z0-9-]+(\.[a-zA-Z0-9-]+)+$/.test(id)) {
    throw new Error(`Service ref id '${id}' must look like '<plugin-id>.<name>'`);
  }
  return Object.freeze({ id });
}
