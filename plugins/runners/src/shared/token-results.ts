/** GitLab's ResetTokenResult and RunnerRegistrationDetails entities. */
export const resetTokenResult = (token: string, expiresAt: Date | null = null) => ({ token, token_expires_at: expiresAt?.toISOString() ?? null });

export const registrationDetails = (runner: { id: number; tokenExpiresAt?: Date | null }, token: string) => ({
  id: runner.id,
  token,
  token_expires_at: runner.tokenExpiresAt?.toISOString() ?? null,
});
