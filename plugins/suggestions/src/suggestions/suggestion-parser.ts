/** Finds the `suggestion` blocks of a diff note and the lines each one replaces. */
import { fencedCodeBlocks } from '@forgekit/markdown';

/** `suggestion`, `suggestion:-2`, `suggestion:+3`, `suggestion:-1+2`: lines above and below the commented line. */
const INFO = /^suggestion(?::(?:-(\d+))?(?:\+(\d+))?)?$/;

export interface ParsedSuggestion {
  fromLine: number;
  toLine: number;
  singleLine: boolean;
  fromContent: string;
  toContent: string;
}

/** The file's lines, each with its line ending. */
export function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

const endingOf = (line: string) => /\r?\n$/.exec(line)?.[0] ?? '';

/** The suggestions of a note body commenting `targetLine` of a file whose text is `file`, in order. */
export function parseSuggestions(body: string, file: string, targetLine: number): ParsedSuggestion[] {
  const lines = linesOf(file);
  return fencedCodeBlocks(body).flatMap(({ info, content }) => {
    const match = INFO.exec(info);
    if (!match) return [];
    const above = Number(match[1] ?? 0);
    const below = Number(match[2] ?? 0);
    const fromLine = Math.max(1, targetLine - above);
    const toLine = Math.min(Math.max(lines.length, 1), targetLine + below);
    const replaced = lines.slice(fromLine - 1, toLine);
    const text = content.replace(/\n$/, '');
    return [
      {
        fromLine,
        toLine,
        singleLine: above === 0 && below === 0,
        fromContent: replaced.join(''),
        toContent: content === '' ? '' : text + endingOf(replaced.at(-1) ?? '\n'),
      },
    ];
  });
}
