/**
 * SAML group links (GitLab's `SamlGroupLink` and `API::SamlGroupLinks`): a SAML group name,
 * optionally limited to one provider, mapped to a membership level in a group. Only the
 * group's Owners manage them, and only while its top-level group has SAML enabled; anyone
 * else gets GitLab's 401.
 */
import { apiError, longerThan, recordNotFound, tooLongMessage, unprocessable, validationFailed } from '@forgekit/kernel';
import { AccessLevel, type Namespace } from '@forgekit/plugin-core/contracts';
import type { SamlGroupLinkRow } from '../entities/saml-group-link.js';
import type { LinkStore } from './link-store.js';

const AMBIGUOUS = 'Multiple group links found with the same name. Please specify a provider parameter to disambiguate.';
const NAME_LIMIT = 255;
const PROVIDER_LIMIT = 255;

/** An empty or blank provider means none, on create and on lookup alike. */
export const providerOf = (value: string | null | undefined) => (value == null || value.trim() === '' ? null : value);

export const rootIdOf = (group: Pick<Namespace, 'traversalPath'>) => Number(group.traversalPath.split('/').filter(Boolean)[0]);

export interface NewLinkInput {
  name: string;
  accessLevel: number;
  provider: string | null | undefined;
}

export function createLinkService(store: LinkStore) {
  return {
    all: (group: Namespace) => store.all(group.id),

    /** The link by name; `provider` undefined when the caller did not send it. */
    async find(group: Namespace, name: string, provider: string | null | undefined): Promise<SamlGroupLinkRow> {
      const links = await store.named(group.id, name, provider === undefined ? undefined : providerOf(provider));
      if (links.length > 1 && provider === undefined) throw unprocessable(AMBIGUOUS);
      if (links.length === 0) throw recordNotFound();
      return links[0]!;
    },

    async create(group: Namespace, input: NewLinkInput): Promise<SamlGroupLinkRow> {
      const provider = providerOf(input.provider);
      const errors: Record<string, string[]> = {};
      if (input.name.trim() === '') errors.saml_group_name = ["can't be blank"];
      else if (longerThan(input.name, NAME_LIMIT)) errors.saml_group_name = [tooLongMessage(NAME_LIMIT)];
      if (provider !== null && longerThan(provider, PROVIDER_LIMIT)) errors.provider = [tooLongMessage(PROVIDER_LIMIT)];
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      // Minimal access needs a licence this server does not model.
      if (input.accessLevel === AccessLevel.MINIMAL) throw apiError(400, 'Access level is invalid');
      const id = await store.insert({
        groupId: group.id,
        rootGroupId: rootIdOf(group),
        name: input.name,
        accessLevel: input.accessLevel,
        memberRoleId: null,
        provider,
      });
      if (id === null) throw apiError(400, 'Saml group name has already been taken');
      return store.byId(id);
    },

    remove: (link: SamlGroupLinkRow) => store.remove(link.id),
    removeAllOf: (groupId: number) => store.removeAllOf(groupId),

    /**
     * The level each group under the top-level group gives a user in these SAML groups,
     * signed in through `provider`: the highest of the matching links per group.
     */
    async levelsFor(rootGroupId: number, samlGroups: readonly string[], provider: string | null): Promise<Map<number, number>> {
      const names = new Set(samlGroups);
      const levels = new Map<number, number>();
      for (const link of await store.underRoot(rootGroupId)) {
        if (!names.has(link.name) || (link.provider !== null && link.provider !== provider)) continue;
        levels.set(link.groupId, Math.max(levels.get(link.groupId) ?? 0, link.accessLevel));
      }
      return levels;
    },
  };
}

export type LinkService = ReturnType<typeof createLinkService>;
