/** A protected branch as the plugin's contract and its code speak of it. */

export const PROTECTION_ACTIONS = ['push', 'merge', 'unprotect'] as const;
export type ProtectionAction = (typeof PROTECTION_ACTIONS)[number];

export interface AccessRule {
  id: number;
  accessLevel: number;
}

/** A protected branch or `*` pattern of a project, with who may push, merge and unprotect. */
export interface ProtectedBranch {
  id: number;
  projectId: number;
  name: string;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
  updatedAt: Date;
  rules: Record<ProtectionAction, AccessRule[]>;
}
