/** GitLab's AgentTokenBasic, AgentToken (adds `last_used_at`) and AgentTokenWithToken (adds the secret). */
import { toIso } from '@forgekit/kernel/orm';
import type { TokenRow } from '../shared/rows.js';

export function presentTokenBasic(token: TokenRow) {
  return {
    id: token.id,
    name: token.name,
    description: token.description,
    agent_id: token.agent_id,
    status: token.status,
    created_at: toIso(token.created_at),
    created_by_user_id: token.created_by_user_id,
  };
}

export const presentToken = (token: TokenRow) => ({ ...presentTokenBasic(token), last_used_at: toIso(token.last_used_at) });

export const presentTokenWithSecret = (token: TokenRow, secret: string) => ({ ...presentToken(token), token: secret });
