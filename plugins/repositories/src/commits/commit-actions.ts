/**
 * The `actions` parameter of a multi-file commit, validated the way Grape validates
 * GitLab's nested params, with errors named `actions[0][file_path]` and so on.
 */
import * as v from 'valibot';
import { f } from '@forgekit/kernel';
import type { FileAction } from '../git/commit-writer.js';

const ACTIONS = ['create', 'update', 'move', 'delete', 'chmod'] as const;

type Issue = { key: string; message: string };

function check(raw: unknown): { action?: FileAction; issues: Issue[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { issues: [{ key: 'action', message: 'is missing' }] };
  const item = raw as Record<string, unknown>;
  const issues: Issue[] = [];
  const text = (key: string, required: boolean): string | null | undefined => {
    const value = item[key];
    if (value === undefined || value === null) {
      if (required) issues.push({ key, message: 'is missing' });
      return value as null | undefined;
    }
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    issues.push({ key, message: 'is invalid' });
    return undefined;
  };

  const action = text('action', true);
  if (action === '') issues.push({ key: 'action', message: 'is empty' });
  else if (typeof action === 'string' && !(ACTIONS as readonly string[]).includes(action))
    issues.push({ key: 'action', message: 'does not have a valid value' });
  const filePath = text('file_path', true);
  const previousPath = text('previous_path', action === 'move');
  const content = action === 'delete' || action === 'chmod' ? null : text('content', action === 'update');
  const encoding = text('encoding', false) ?? 'text';
  if (encoding !== 'text' && encoding !== 'base64') issues.push({ key: 'encoding', message: 'does not have a valid value' });
  const lastCommitId = text('last_commit_id', false);

  let executeFilemode: boolean | null = null;
  const rawMode = item.execute_filemode;
  if (rawMode !== undefined && rawMode !== null && rawMode !== '') {
    const parsed = v.safeParse(f.boolean(), rawMode);
    if (parsed.success) executeFilemode = parsed.output;
    else issues.push({ key: 'execute_filemode', message: 'is invalid' });
  } else if (action === 'chmod') issues.push({ key: 'execute_filemode', message: 'is missing' });

  if (issues.length > 0) return { issues };
  return {
    issues,
    action: {
      action: action as FileAction['action'],
      filePath: filePath!,
      previousPath: previousPath ?? null,
      content: typeof content === 'string' ? Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8') : action === 'create' ? Buffer.alloc(0) : null,
      executeFilemode,
      lastCommitId: lastCommitId ?? null,
    },
  };
}

/** A required array of actions; each bad entry reports `actions[i][key] <message>`. */
export function actionsField() {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      if (value === undefined || value === null) {
        addIssue({ message: 'is missing' });
        return NEVER;
      }
      // Form bodies give `actions[0][action]=...` as an object keyed by index.
      const list = Array.isArray(value)
        ? value
        : typeof value === 'object' && Object.keys(value).every((key) => /^\d+$/.test(key))
          ? Object.values(value)
          : null;
      if (!list) {
        addIssue({ message: 'is invalid' });
        return NEVER;
      }
      const actions: FileAction[] = [];
      let failed = false;
      list.forEach((raw, index) => {
        const result = check(raw);
        for (const issue of result.issues) {
          failed = true;
          addIssue({
            message: issue.message,
            path: [
              { type: 'array', origin: 'value', input: list, key: index, value: raw },
              { type: 'object', origin: 'value', input: raw, key: issue.key, value: (raw as Record<string, unknown>)?.[issue.key] },
            ] as never,
          });
        }
        if (result.action) actions.push(result.action);
      });
      return failed ? NEVER : actions;
    }),
  ) as v.GenericSchema<unknown, FileAction[]>;
}
