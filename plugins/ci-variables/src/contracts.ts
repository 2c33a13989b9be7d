/**
 * What other plugins may use of CI/CD variables: nothing yet. Variables are read and written
 * only through the API; a plugin that needs them (pipelines, say) gets a service ref here.
 */
export {};
