/**
 * Deploy keys (GitLab's `DeployKey` and `DeployKeysProject`): a key made on one project can be
 * enabled on others by whoever maintains a project that already uses it; administrators make
 * public keys any maintainer may enable. A key no project uses any more goes away, unless public.
 */
import { checkUnmodifiedSince, notFound, recordNotFound, type EventBus, type Principal } from '@forgekit/kernel';
import { AccessLevel, type AccessService } from '@forgekit/plugin-core/contracts';
import { keyEvents } from '../contracts.js';
import type { KeyRow } from '../entities/key.js';
import type { KeyCreation } from '../shared/key-creation.js';
import { keyEventOf } from '../shared/key-events.js';
import { sanitizeKey } from '../shared/public-key.js';
import type { KeyStore, StoredKey } from '../shared/key-store.js';
import type { DeployKeyStore, ProjectDeployKey } from './deploy-key-store.js';

export interface NewDeployKeyInput {
  key: string;
  title: string;
  canPush: boolean;
  expiresAt?: Date | null;
}

export function createDeployKeyService(options: {
  keys: KeyStore;
  deployKeys: DeployKeyStore;
  creation: KeyCreation;
  access: AccessService;
  events: EventBus;
}) {
  const { keys, deployKeys, creation, access, events } = options;
  const usernameOf = (user: Principal) => user.username;

  /** Whether the user maintains a project this key is enabled on (GitLab's `has_deploy_key`). */
  async function maintainsAProjectOf(user: Principal, keyId: number): Promise<boolean> {
    const projectIds = (await deployKeys.linksOf([keyId])).map((link) => link.projectId);
    if (projectIds.length === 0) return false;
    const maintained = await access.visibleProjectIds(user, { membershipOnly: true, minLevel: AccessLevel.MAINTAINER, ids: projectIds, limit: 1 });
    return maintained.length > 0;
  }

  /** GitLab's `accessible_deploy_keys`: public keys, and keys of projects the user maintains. */
  const accessible = async (user: Principal, key: KeyRow) => key.public || (await maintainsAProjectOf(user, key.id));

  async function emitRemoved(removed: KeyRow | KeyRow[] | null) {
    for (const key of [removed ?? []].flat()) await events.emit(keyEvents.keyDestroyed, keyEventOf(key, null));
  }

  return {
    list: (projectId: number, limit: number, offset: number) => deployKeys.listOfProject(projectId, limit, offset),
    count: (projectId: number) => deployKeys.countOfProject(projectId),

    /** The project's deploy key, or `404 Not found`. */
    async find(projectId: number, keyId: number): Promise<ProjectDeployKey> {
      const found = await deployKeys.findInProject(projectId, keyId);
      if (!found) throw recordNotFound();
      return found;
    },

    /**
     * Adds a key to a project: the same key already there answers as it is; a key the user may
     * use elsewhere is enabled here; otherwise a new deploy key is made, created by the user.
     */
    async create(user: Principal, projectId: number, input: NewDeployKeyInput): Promise<ProjectDeployKey> {
      const text = input.key.trim() === '' ? input.key : sanitizeKey(input.key);
      const present = await deployKeys.findInProjectByText(projectId, text);
      if (present) return present;
      const existing = await keys.findDeployKeyByText(text);
      if (existing && (await accessible(user, existing))) {
        const link = await deployKeys.link(existing.id, projectId, input.canPush);
        return { ...link, key: existing };
      }
      const { key, link } = await creation.create(
        { title: input.title, key: input.key, expiresAt: input.expiresAt },
        { kind: 'deploy', userId: user.id },
        (row) => deployKeys.createWithLink(row, projectId, input.canPush),
        'deploy_key',
      );
      await events.emit(keyEvents.keyCreated, keyEventOf(key, usernameOf(user)));
      return { ...link, key };
    },

    /** A public deploy key, made by an administrator for every project to enable. */
    async createPublic(user: Principal, input: { key: string; title: string; expiresAt?: Date | null }): Promise<StoredKey> {
      const key = await creation.create(input, { kind: 'deploy', userId: user.id, public: true }, (row) => keys.insert(row));
      await events.emit(keyEvents.keyCreated, keyEventOf(key, usernameOf(user)));
      return key;
    },

    /**
     * Changes `can_push` here, and the title where GitLab lets the user: administrators, or
     * anyone who may update a private key that no other project uses.
     */
    async update(user: Principal, found: ProjectDeployKey, changes: { title?: string | null; canPush?: boolean | null }): Promise<ProjectDeployKey> {
      const link = await deployKeys.updateLink(found, { canPush: changes.canPush ?? undefined });
      let key = found.key;
      if (changes.title !== undefined && changes.title !== null) {
        const usedElsewhere = (await deployKeys.linksOf([key.id])).length > 1;
        const mayRetitle = user.isAdmin || (!key.public && !usedElsewhere);
        if (mayRetitle && changes.title !== key.title) {
          await keys.updateTitle(key.id, changes.title);
          key = { ...key, title: changes.title, updatedAt: new Date() };
        }
      }
      return { ...link, key };
    },

    /** Enables a deploy key the user may use (any, for administrators) on a project; `404 Deploy key Not Found` otherwise. */
    async enable(user: Principal, projectId: number, keyId: number): Promise<KeyRow> {
      const key = await keys.findById(keyId, 'deploy');
      if (!key || !(user.isAdmin || (await accessible(user, key)))) throw notFound('Deploy key');
      await deployKeys.link(key.id, projectId, false);
      return key;
    },

    /** Disables a key on a project (`404 Deploy key Not Found` when it is not enabled there). */
    async remove(projectId: number, keyId: number, unmodifiedSince?: string) {
      const found = await deployKeys.findInProject(projectId, keyId);
      if (!found) throw notFound('Deploy key');
      checkUnmodifiedSince(unmodifiedSince, found.updatedAt);
      await emitRemoved(await deployKeys.unlink(found));
    },

    /** The instance's deploy keys, with the projects each is enabled on. */
    async instanceList(publicOnly: boolean, limit: number, offset: number) {
      const list = await keys.deployKeys(publicOnly, limit, offset);
      const links = await deployKeys.linksOf(list.map((key) => key.id));
      return list.map((key) => ({ key, links: links.filter((link) => link.deployKeyId === key.id) }));
    },
    countInstance: (publicOnly: boolean) => keys.countDeployKeys(publicOnly),

    linksOf: (keyId: number) => deployKeys.linksOf([keyId]),

    /** A deleted project's links go, with the keys no other project uses. */
    async removeAllOfProject(projectId: number) {
      await emitRemoved(await deployKeys.unlinkProject(projectId));
    },
  };
}

export type DeployKeyService = ReturnType<typeof createDeployKeyService>;
