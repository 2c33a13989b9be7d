/**
 * Creating a key, user's or deploy: GitLab's validations, the instance's restrictions, and the
 * fingerprint's uniqueness across every key, which the store's unique index has the last word on.
 */
import { conflict, validationFailed } from '@forgekit/kernel';
import type { SettingsService } from '@forgekit/plugin-core/contracts';
import type { KeyKind, UsageType } from '../entities/key.js';
import { checkKey, KeyErrors } from './key-rules.js';
import { readKeyRestrictions } from './key-settings.js';
import type { NewKey, StoredKey } from './key-store.js';

export interface KeyInput {
  title: string;
  key: string;
  expiresAt?: Date | null;
  usageType?: UsageType | null;
}

export interface KeyOwner {
  kind: KeyKind;
  userId: number | null;
  public?: boolean;
}

export function createKeyCreation(settings: SettingsService, options: { fingerprintTaken(sha256: string): Promise<boolean> }) {
  /** The row to store, or the validation errors. */
  async function prepare(input: KeyInput, owner: KeyOwner, taken = false): Promise<NewKey | KeyErrors> {
    const restrictions = await readKeyRestrictions(settings);
    let checked = checkKey({ title: input.title, key: input.key, expiresAt: input.expiresAt }, restrictions, { taken });
    if (checked.errors.empty && !taken && (await options.fingerprintTaken(checked.publicKey!.sha256))) {
      checked = checkKey({ title: input.title, key: input.key, expiresAt: input.expiresAt }, restrictions, { taken: true });
    }
    if (!checked.errors.empty) return checked.errors;
    // Validated: the key parsed, so it has fingerprints.
    const now = new Date();
    return {
      kind: owner.kind,
      userId: owner.userId,
      title: input.title,
      key: checked.key,
      fingerprint: checked.publicKey!.md5,
      fingerprintSha256: checked.publicKey!.sha256,
      usageType: input.usageType ?? 'auth_and_signing',
      public: owner.public ?? false,
      expiresAt: input.expiresAt ?? null,
      lastUsedAt: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  const failure = (errors: KeyErrors, errorPrefix?: string) => validationFailed(errorPrefix ? errors.nestedUnder(errorPrefix) : errors.byAttribute);

  return {
    /**
     * Validates and stores through `insert`, which answers null when the fingerprint was taken
     * meanwhile (the unique index); then the errors say so.
     */
    async create<T = StoredKey>(input: KeyInput, owner: KeyOwner, insert: (row: NewKey) => Promise<T | null>, errorPrefix?: string): Promise<T> {
      const row = await prepare(input, owner);
      if (row instanceof KeyErrors) throw failure(row, errorPrefix);
      const stored = await insert(row);
      if (stored) return stored;
      const errors = await prepare(input, owner, true);
      // A taken fingerprint always fails validation; the conflict is for the impossible case.
      throw errors instanceof KeyErrors ? failure(errors, errorPrefix) : conflict();
    },
  };
}

export type KeyCreation = ReturnType<typeof createKeyCreation>;
