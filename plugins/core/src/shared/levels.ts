/** GitLab's numeric access levels. */
export const AccessLevel = {
  NO_ACCESS: 0,
  MINIMAL: 5,
  GUEST: 10,
  PLANNER: 15,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
} as const;

const ACCESS_LEVEL_NAMES: Record<number, string> = {
  0: 'No access',
  5: 'Minimal Access',
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
};

/** GitLab's human name of an access level: `30` → `Developer`. */
export const accessLevelName = (level: number) => ACCESS_LEVEL_NAMES[level] ?? 'Custom';

export const MEMBER_LEVELS = [5, 10, 15, 20, 30, 40, 50] as const;

export const Visibility = { private: 0, internal: 10, public: 20 } as const;
export type VisibilityName = keyof typeof Visibility;
export const VISIBILITY_NAMES = Object.keys(Visibility) as VisibilityName[];

export function visibilityName(level: number): VisibilityName {
  return level >= 20 ? 'public' : level >= 10 ? 'internal' : 'private';
}

/** Memberships expire at the start of their `expires_at` day, compared with this. */
export { today } from '@forgekit/kernel';
