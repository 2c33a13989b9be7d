/**
 * GitLab's checks on each ref a push updates (Gitlab::Checks::BranchCheck), as rules for
 * the pre-receive hook: a refusal known from the commands alone, and whether a rewrite of
 * the branch must be refused (which needs the pushed objects, so the hook decides it).
 */
import type { BranchPolicy } from '../protected-branches/branch-policy.js';
import { ZERO_SHA } from '../git/ref-names.js';
import type { PushCommand } from './pkt-line.js';

export const PUSH_MESSAGES = {
  deleteDefaultBranch: 'The default branch of a project cannot be deleted.',
  forcePushProtected: 'You are not allowed to force push code to a protected branch on this project.',
  deleteProtected: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
  deleteProtectedNotWeb: 'You can only delete protected branches using the web interface.',
  pushProtected: 'You are not allowed to push code to protected branches on this project.',
  createProtected: 'You are not allowed to create protected branches on this project.',
  createProtectedFromNewCommit: 'You can only use an existing protected branch ref as the basis of a new protected branch.',
  createProtectedNotWeb: 'You can only create protected branches using the web interface and API.',
} as const;

/** What the server tells a Developer who pushes first into an empty repository it may not create branches in. */
export function emptyProjectPushMessage(fullPath: string, externalUrl: string): string {
  return `\nA default branch (e.g. main) does not yet exist for ${fullPath}\nAsk a project Owner or Maintainer to create a default branch:\n\n  ${externalUrl}/${fullPath}/-/project_members\n\n`;
}

export interface RefRule {
  ref: string;
  /** Refuse the update when it rewrites the branch (the old tip is not an ancestor of the new). */
  refuseRewrite: boolean;
  refusal: string | null;
}

export interface PushContext {
  policy: BranchPolicy;
  defaultBranch: string | null;
  empty: boolean;
  fullPath: string;
  externalUrl: string;
  /** Whether a commit is already on a protected branch (the safe base of a new protected branch). */
  onProtectedBranch: (sha: string) => Promise<boolean>;
}

async function refusalFor(command: PushCommand, branch: string, context: PushContext): Promise<string | null> {
  const { policy } = context;
  const deletion = command.after === ZERO_SHA;
  const creation = command.before === ZERO_SHA;
  if (deletion && branch === context.defaultBranch) return PUSH_MESSAGES.deleteDefaultBranch;
  if (!policy.isProtected(branch)) return null;
  if (!context.empty && creation) {
    if (policy.canPush(branch)) return null;
    if (!policy.canMerge(branch)) return PUSH_MESSAGES.createProtected;
    if (!(await context.onProtectedBranch(command.after))) return PUSH_MESSAGES.createProtectedFromNewCommit;
    return PUSH_MESSAGES.createProtectedNotWeb;
  }
  if (!context.empty && deletion) return policy.canDelete(branch) ? PUSH_MESSAGES.deleteProtectedNotWeb : PUSH_MESSAGES.deleteProtected;
  if (policy.canPush(branch)) return null;
  return context.empty ? emptyProjectPushMessage(context.fullPath, context.externalUrl) : PUSH_MESSAGES.pushProtected;
}

/** The rules for the branches a push updates; refs the checks leave alone get none. */
export async function pushRules(commands: PushCommand[], context: PushContext): Promise<RefRule[]> {
  const rules: RefRule[] = [];
  for (const command of commands) {
    if (!command.ref.startsWith('refs/heads/')) continue;
    const branch = command.ref.slice('refs/heads/'.length);
    const refusal = await refusalFor(command, branch, context);
    const refuseRewrite =
      context.policy.isProtected(branch) && !context.policy.canForcePush(branch) && command.before !== ZERO_SHA && command.after !== ZERO_SHA;
    if (refusal || refuseRewrite) rules.push({ ref: command.ref, refuseRewrite, refusal });
  }
  return rules;
}
