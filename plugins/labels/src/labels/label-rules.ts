/** GitLab's label model rules: colours, the text colour shown on them, and title and description checks. */
import { longerThan, TEXT_LIMIT, tooLongMessage } from '@forgekit/kernel';
import { CSS_COLORS } from './css-colors.js';

export const TITLE_LIMIT = 255;
/** The colour labels made from an issue's `labels` get. */
export const DEFAULT_COLOR = '#428BCA';

const HEX_COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

/** The colour as stored: trimmed, a CSS colour name converted to hex. Not validated. */
export function normalizeColor(color: string): string {
  const trimmed = color.trim();
  return CSS_COLORS.get(trimmed.toLowerCase()) ?? trimmed;
}

export const isValidColor = (color: string) => HEX_COLOR.test(color);

function rgbOf(color: string): number[] {
  const digits = color.slice(1);
  const pairs = digits.length === 3 ? [...digits].map((digit) => digit + digit) : (digits.match(/../g) ?? []);
  return pairs.map((pair) => Number.parseInt(pair, 16));
}

/** Dark text on light colours, white text on dark ones, as GitLab picks it (sum of the channels over 500). */
export function textColorFor(color: string): string {
  const light = isValidColor(color) && rgbOf(color).reduce((sum, channel) => sum + channel, 0) > 500;
  return light ? '#333333' : '#FFFFFF';
}

const DROPPED_WITH_CONTENT = 'iframe|math|noembed|noframes|noscript|plaintext|script|style|svg|xmp';
const SPACED = 'address|article|aside|blockquote|br|dd|div|dl|dt|footer|h[1-6]|header|hgroup|hr|li|nav|ol|p|pre|section|ul';
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? entity;
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/**
 * A label title or description as GitLab's model stores it: markup removed (with the content of
 * scripts, styles and the like; block elements leave a space) and entities decoded.
 */
export function sanitizeText(value: string): string {
  const text = value
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(new RegExp(`<(${DROPPED_WITH_CONTENT})\\b[^>]*>[\\s\\S]*?(?:</\\1\\s*>|$)`, 'gi'), '')
    .replace(new RegExp(`</?(?:${SPACED})\\b[^>]*>`, 'gi'), ' ')
    .replace(/<\/?[a-z][^>]*>|<[!?][^>]*>/gi, '');
  return decodeEntities(text);
}

/** A label as it is about to be saved. */
export interface LabelDraft {
  title: string;
  color: string;
  description: string | null;
}

/** Rails' model errors for a label, in GitLab's order; empty when it may be saved. */
export function labelErrors(draft: LabelDraft, taken = false): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] ??= [];
    errors[field].push(message);
  };
  if (draft.title === '') add('title', "can't be blank");
  if (!/^[^,]+$/.test(draft.title)) add('title', 'is invalid');
  if (longerThan(draft.title, TITLE_LIMIT)) add('title', tooLongMessage(TITLE_LIMIT));
  if (taken) add('title', 'has already been taken');
  if (!isValidColor(draft.color)) add('color', 'must be a valid color code');
  if (draft.description !== null && longerThan(draft.description, TEXT_LIMIT)) add('description', tooLongMessage(TEXT_LIMIT));
  return errors;
}

export const hasErrors = (errors: Record<string, string[]>) => Object.keys(errors).length > 0;
