/** GitLab's default validation texts, as full messages (`<Attribute> <message>`). */
import { tooLongMessage } from '@forgekit/kernel';

export const blank = (attribute: string) => `${attribute} can't be blank`;
export const taken = (attribute: string) => `${attribute} has already been taken`;
export const tooShort = (attribute: string, min: number) => `${attribute} is too short (minimum is ${min} character${min === 1 ? '' : 's'})`;
export const tooLong = (attribute: string, max: number) => `${attribute} ${tooLongMessage(max)}`;

/** Ruby's `blank?` for strings: nil, empty or whitespace only. */
export const isBlank = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';
export { charLength, longerThan } from '@forgekit/kernel';

/** Drops repeated messages, as GitLab does for errors of nested records. */
export const unique = (messages: string[]) => [...new Set(messages)];
