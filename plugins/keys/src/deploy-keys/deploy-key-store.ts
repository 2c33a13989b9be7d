/** Deploy keys and the projects they are enabled on (`deploy_keys_projects`), by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import { recordId, unlessTaken } from '@forgekit/kernel/orm';
import { DeployKeyProjectEntity, type DeployKeyProjectRow } from '../entities/deploy-key-project.js';
import { KeyEntity, type KeyRow } from '../entities/key.js';
import type { NewKey } from '../shared/key-store.js';

export type DeployKeyLink = DeployKeyProjectRow;
/** A project's deploy key: the link, with its key. */
export type ProjectDeployKey = DeployKeyProjectRow & { key: KeyRow };

export function createDeployKeyStore(database: Database) {
  const withKeys = () => database.from(DeployKeyProjectEntity, 'l').join(KeyEntity, 'k', 'k.id', 'l.deployKeyId').nest('key', 'k');
  const ofProject = database.prepareRows((p) => withKeys().where('l.projectId', p.projectId).orderBy('l.id').limit(p.limit).offset(p.offset));

  const newLink = (deployKeyId: number, projectId: number, canPush: boolean) => {
    const now = new Date();
    return { deployKeyId, projectId, canPush, createdAt: now, updatedAt: now };
  };

  return {
    listOfProject: (projectId: number, limit: number, offset: number): Promise<ProjectDeployKey[]> => ofProject.all({ projectId, limit, offset }),
    countOfProject: (projectId: number) => database.count(database.from(DeployKeyProjectEntity).where('projectId', projectId)),

    /** The project's link to a deploy key, with the key. */
    async findInProject(projectId: number, deployKeyId: number): Promise<ProjectDeployKey | undefined> {
      if (recordId(deployKeyId) === null) return undefined;
      return database.row(withKeys().where('l.projectId', projectId).where('l.deployKeyId', deployKeyId));
    },

    /** The project's link to the deploy key with exactly this text. */
    findInProjectByText: (projectId: number, key: string): Promise<ProjectDeployKey | undefined> =>
      database.row(withKeys().where('l.projectId', projectId).where('k.key', key)),

    /** Every project link of these deploy keys, oldest first. */
    linksOf: (deployKeyIds: readonly number[]): Promise<DeployKeyLink[]> =>
      deployKeyIds.length === 0 ? Promise.resolve([]) : database.rows(database.from(DeployKeyProjectEntity).whereIn('deployKeyId', deployKeyIds).orderBy('id')),

    /** Enables a key on a project; an existing link stays as it is. Answers the link. */
    async link(deployKeyId: number, projectId: number, canPush: boolean): Promise<DeployKeyLink> {
      const row = newLink(deployKeyId, projectId, canPush);
      const id = await unlessTaken(database.insert(DeployKeyProjectEntity, row), () => null);
      if (id !== null) return { id, ...row };
      return (await database.row(database.from(DeployKeyProjectEntity).where({ deployKeyId, projectId })))!;
    },

    /** A new deploy key and its first project, in one transaction; null when the fingerprint is taken. */
    async createWithLink(key: NewKey, projectId: number, canPush: boolean): Promise<{ key: KeyRow; link: DeployKeyLink } | null> {
      return unlessTaken(
        database.transaction(async (tx) => {
          const keyId = await database.insert(KeyEntity, key, { tx });
          const link = newLink(keyId, projectId, canPush);
          const linkId = await database.insert(DeployKeyProjectEntity, link, { tx });
          return { key: { id: keyId, ...key }, link: { id: linkId, ...link } };
        }),
        () => null,
      );
    },

    async updateLink(link: DeployKeyLink, changes: { canPush?: boolean }): Promise<DeployKeyLink> {
      const patch = { ...(changes.canPush === undefined ? {} : { canPush: changes.canPush }), updatedAt: new Date() };
      await database.update(DeployKeyProjectEntity, { id: link.id }, patch);
      return { ...link, ...patch };
    },

    /**
     * Removes a project's link; the key goes too when no project uses it any more and it is
     * not public (GitLab's orphaned deploy key). Answers the removed key, if any.
     */
    unlink: (link: DeployKeyLink): Promise<KeyRow | null> =>
      database.transaction(async (tx) => {
        await database.delete(DeployKeyProjectEntity, { id: link.id }, { tx });
        return removeIfOrphaned(link.deployKeyId, tx);
      }),

    /** Removes a deleted project's links, and the keys that leaves orphaned. Answers those keys. */
    unlinkProject: (projectId: number): Promise<KeyRow[]> =>
      database.transaction(async (tx) => {
        const links = await database.rows(database.from(DeployKeyProjectEntity).where('projectId', projectId), { tx });
        await database.delete(DeployKeyProjectEntity, { projectId }, { tx });
        const removed: KeyRow[] = [];
        for (const link of links) {
          const key = await removeIfOrphaned(link.deployKeyId, tx);
          if (key) removed.push(key);
        }
        return removed;
      }),
  };

  async function removeIfOrphaned(deployKeyId: number, tx: Transaction): Promise<KeyRow | null> {
    const used = await database.count(database.from(DeployKeyProjectEntity).where('deployKeyId', deployKeyId).limit(1), { tx });
    if (used > 0) return null;
    const key = await database.row(database.from(KeyEntity).where({ id: deployKeyId, kind: 'deploy', public: false }), { tx });
    if (!key) return null;
    await database.delete(KeyEntity, { id: key.id }, { tx });
    return key;
  }
}

export type DeployKeyStore = ReturnType<typeof createDeployKeyStore>;
