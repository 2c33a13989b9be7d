/** The suggestions plugin publishes nothing to other plugins yet: it adds `suggestions` to merge request diff notes through the notes contract. */
export {};
