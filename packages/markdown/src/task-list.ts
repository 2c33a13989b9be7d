const TASK_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX~])\]\s/gm;

/** Markdown task list items of a text (an issue's or merge request's description): how many, how many checked. */
export function taskCompletion(text: string | null) {
  let count = 0;
  let completed = 0;
  for (const match of (text ?? '').matchAll(TASK_ITEM)) {
    count++;
    if (match[1] !== ' ') completed++;
  }
  return { count, completed_count: completed };
}
