/** Model validation texts and how service errors reach the wire. */
import { badRequest, longerThan, tooLongMessage } from '@forgekit/kernel';

export const isBlank = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';

export const blankMessage = (attribute: string) => `${attribute} can't be blank`;

/** The length rule: blank is left to the presence rule, longer than `max` is reported. */
export function lengthMessage(attribute: string, value: string | null | undefined, max: number): string | null {
  return value && longerThan(value, max) ? `${attribute} ${tooLongMessage(max)}` : null;
}

/**
 * A service error as GitLab's `bad_request!` renders it. A list of messages is
 * interpolated in Ruby's inspect form: `400 Bad request - ["A", "B"]`.
 */
export function serviceError(messages: string | readonly string[]) {
  if (typeof messages === 'string') return badRequest(messages);
  return badRequest(`[${messages.map((message) => JSON.stringify(message)).join(', ')}]`);
}
