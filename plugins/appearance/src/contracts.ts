/** What other plugins may use of the appearance plugin: nothing yet; it is read and written through the API. */
export {};
