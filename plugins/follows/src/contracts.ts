/**
 * What other plugins may use of follows: nothing yet. The counts reach user answers through
 * core's field extensions; GitLab has no webhook or system hook for follows.
 */
export {};
