/** GitLab's ResetTokenResult and RunnerRegistrationDetails entities. */
import { toIso } from '@forgekit/kernel/orm';

export const resetTokenResult = (token: string, expiresAt: unknown = null) => ({ token, token_expires_at: toIso(expiresAt) });

export const registrationDetails = (runner: { id: number; token_expires_at: unknown }, token: string) => ({
  id: runner.id,
  token,
  token_expires_at: toIso(runner.token_expires_at),
});
