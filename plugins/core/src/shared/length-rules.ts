/**
 * How long core's text attributes may be, in characters: GitLab's model limits and,
 * where GitLab sets none (email, public_email, note, token names, default_branch,
 * repository_storage), the width of the column that keeps the value.
 */
import { longerThan, tooLongMessage } from '@forgekit/kernel';

export type ModelErrors = Record<string, string[]>;

/** Devise caps passwords at 128; the profile fields are the user details model's. */
export const USER_LENGTHS = {
  name: 255,
  username: 255,
  email: 255,
  password: 128,
  bio: 255,
  location: 500,
  public_email: 255,
  website_url: 500,
  organization: 500,
  job_title: 200,
  pronouns: 50,
  note: 1000,
} as const;
export const GROUP_LENGTHS = { name: 255, path: 255, description: 500, default_branch: 255 } as const;
export const PROJECT_LENGTHS = { name: 255, path: 255, description: 2000, default_branch: 255, ci_config_path: 255, repository_storage: 255 } as const;
/** Each topic's name. */
export const TOPIC_LENGTH = 255;
export const TOKEN_LENGTHS = { name: 255, description: 255 } as const;

/** Adds `is too long` under each attribute whose value is longer than its limit. */
export function addLengthErrors(errors: ModelErrors, limits: Readonly<Record<string, number>>, values: Readonly<Record<string, unknown>>): ModelErrors {
  for (const [attribute, max] of Object.entries(limits)) {
    const value = values[attribute];
    if (typeof value === 'string' && longerThan(value, max)) (errors[attribute] ??= []).push(tooLongMessage(max));
  }
  return errors;
}
