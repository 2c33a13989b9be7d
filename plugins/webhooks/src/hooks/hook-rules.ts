/** GitLab's rules for a hook's URL template, URL variables, custom headers and branch filter. */
import { RE2JS } from 're2js';
import { isValidRefName } from '@forgekit/plugin-repositories/contracts';
import { wildcardMatches } from '@forgekit/kernel';

const MAX_ENTRIES = 20;
const VARIABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_KEY = /^[A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*$/;
const PLACEHOLDER = /\{([^{}]+)\}/g;

export const MAX_VARIABLE_VALUE = 100;
export const MAX_HEADER_VALUE = 2048;

export const validVariable = (key: string, value: string) => VARIABLE_KEY.test(key) && value.length >= 1 && value.length <= MAX_VARIABLE_VALUE;
export const validHeader = (key: string, value: string) => HEADER_KEY.test(key) && value.length >= 1 && value.length <= MAX_HEADER_VALUE;

export function validMap(map: Record<string, string>, valid: (key: string, value: string) => boolean) {
  const entries = Object.entries(map);
  return entries.length <= MAX_ENTRIES && entries.every(([key, value]) => valid(key, value));
}

/** The URL with `{name}` placeholders filled in, or null when one has no variable. */
export function interpolate(url: string, variables: Record<string, string>): string | null {
  let missing = false;
  const filled = url.replace(PLACEHOLDER, (_whole, name: string) => {
    if (!(name in variables)) missing = true;
    return variables[name] ?? '';
  });
  return missing ? null : filled;
}

export function validBranchFilter(strategy: string, filter: string | null) {
  if (!filter || strategy === 'all_branches') return true;
  if (strategy === 'regex') {
    try {
      RE2JS.compile(filter);
      return true;
    } catch {
      return false;
    }
  }
  return filter.split(',').every((pattern) => isValidRefName(pattern.trim().replaceAll('*', 'x')));
}

/** Whether a push to `branch` passes the hook's branch filter. */
export function branchPasses(strategy: string, filter: string | null, branch: string) {
  if (!filter || strategy === 'all_branches') return true;
  if (strategy === 'regex') return RE2JS.compile(filter).matcher(branch).find();
  return filter.split(',').some((pattern) => wildcardMatches(pattern.trim(), branch));
}
