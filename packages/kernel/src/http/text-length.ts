/**
 * Text lengths as GitLab's models count and report them: in characters (Ruby's
 * `String#length` counts code points, not UTF-16 units) with Rails' length message.
 */

/**
 * The longest text the product keeps where GitLab sets no length of its own (and no
 * column holds less): the longest text the specification allows anywhere, a note body.
 */
export const TEXT_LIMIT = 1_000_000;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Ruby's `String#length`: a character outside the Basic Multilingual Plane counts once. */
export function charLength(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    if (isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1))) {
      count--;
      index++;
    }
  }
  return count;
}

/** Whether `text` has more than `max` characters, without counting text far from the limit. */
export function longerThan(text: string, max: number): boolean {
  // A character takes one or two UTF-16 units.
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  return charLength(text) > max;
}

/** Rails' `too_long` message. */
export const tooLongMessage = (max: number) => `is too long (maximum is ${max} ${max === 1 ? 'character' : 'characters'})`;
