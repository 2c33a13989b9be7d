/** TOTP two-factor authentication (RFC 6238) through otplib: enrol, confirm with a code, disable. */
import { badRequest, type Secrets } from '@forgekit/kernel';
import { generateSecret, generateURI, verify } from 'otplib';
import type { TwoFactorStore } from './two-factor-store.js';

export function createTwoFactorService(store: TwoFactorStore, secrets: Secrets, issuer: string) {
  const secretOf = (sealed: string) => secrets.open(sealed).toString('utf8');
  const codeIsValid = async (sealed: string, code: string) => /^\d{6}$/.test(code) && (await verify({ secret: secretOf(sealed), token: code })).valid;

  return {
    async status(userId: number) {
      const row = await store.findOf(userId);
      return { enabled: Boolean(row?.enabledAt), pending: Boolean(row && !row.enabledAt) };
    },
    isEnabled: async (userId: number) => Boolean((await store.findOf(userId))?.enabledAt),
    enabledAmong: (userIds: readonly number[]) => store.enabledAmong(userIds),

    /** A new secret and its `otpauth://` URI for an authenticator app; refused while two-factor is on. */
    async begin(userId: number, label: string) {
      if (await this.isEnabled(userId)) throw badRequest('Two-factor authentication is already enabled');
      const secret = generateSecret();
      await store.begin(userId, secrets.seal(secret));
      return { secret, provisioning_uri: generateURI({ issuer, label, secret }) };
    },

    async activate(userId: number, code: string) {
      const row = await store.findOf(userId);
      if (!row || row.enabledAt) throw badRequest('There is no pending two-factor enrolment');
      if (!(await codeIsValid(row.sealedSecret, code))) throw badRequest('Invalid two-factor code');
      await store.enable(userId);
    },

    /** The user's own switch-off, confirmed by a current code. */
    async disableWithCode(userId: number, code: string) {
      const row = await store.findOf(userId);
      if (!row?.enabledAt) throw badRequest('Two-factor authentication is not enabled for this user');
      if (!(await codeIsValid(row.sealedSecret, code))) throw badRequest('Invalid two-factor code');
      await store.remove(userId);
    },

    /** An Owner's or administrator's switch-off: GitLab's `disable_two_factor`. */
    async disable(userId: number) {
      if (!(await this.isEnabled(userId))) throw badRequest('Two-factor authentication is not enabled for this user');
      await store.remove(userId);
    },
    removeAllOf: (userId: number) => store.remove(userId),
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
