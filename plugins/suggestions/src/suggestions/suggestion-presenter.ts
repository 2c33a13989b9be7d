/** GitLab's Suggestion entity; `applicable` is the documented name of GitLab's `appliable`, sent with the same value. */
import type { SuggestionRow } from '../entities/suggestion.js';

export function presentSuggestion(suggestion: SuggestionRow, appliable: boolean) {
  return {
    id: suggestion.id,
    from_line: suggestion.fromLine,
    to_line: suggestion.toLine,
    appliable,
    applicable: appliable,
    applied: suggestion.applied,
    from_content: suggestion.fromContent,
    to_content: suggestion.toContent,
  };
}
