/** Feature flag user lists: named sets of external user ids, addressed by a per-project iid. */
import { apiError, TEXT_LIMIT, totalFor, type PageRequest } from '@forgekit/kernel';
import { recordId, unlessTaken } from '@forgekit/kernel/orm';
import type { FeatureFlagUserListRow } from '../entities/feature-flag-user-list.js';
import type { FlagStore } from '../flags/flag-store.js';
import { userXidsMessage, validUserXids } from '../shared/user-xids.js';
import { blank, charLength, isBlank, longerThan, taken, tooLong, tooShort } from '../shared/validation-messages.js';
import type { UserListStore } from './user-list-store.js';

const NAME_LIMIT = 255;

interface UserListValues {
  name: string | null;
  user_xids: string | null;
}

/** A write failed on a foreign key (MikroORM's exception, by name: the kernel exports no test for it). */
const isForeignKeyViolation = (error: unknown) => (error as object | null)?.constructor?.name === 'ForeignKeyConstraintViolationException';

export function createUserListService(store: UserListStore, flags: FlagStore) {
  async function messagesFor(projectId: number, values: UserListValues, exceptId: number | null): Promise<string[]> {
    const messages: string[] = [];
    const name = values.name ?? '';
    if (isBlank(name)) messages.push(blank('Name'));
    if (await store.nameTaken(projectId, name, exceptId)) messages.push(taken('Name'));
    if (charLength(name) < 1) messages.push(tooShort('Name', 1));
    if (longerThan(name, NAME_LIMIT)) messages.push(tooLong('Name', NAME_LIMIT));
    if (!validUserXids(values.user_xids)) messages.push(`User xids ${userXidsMessage('user_xids')}`);
    // GitLab keeps user ids of any length; the product bounds them.
    if (values.user_xids && longerThan(values.user_xids, TEXT_LIMIT)) messages.push(tooLong('User xids', TEXT_LIMIT));
    return messages;
  }

  async function validate(projectId: number, values: UserListValues, exceptId: number | null) {
    const messages = await messagesFor(projectId, values, exceptId);
    if (messages.length > 0) throw apiError(400, messages);
  }

  /** A name a concurrent request took meanwhile reads as the usual validation error. */
  const nameTakenOnConflict = <T>(write: Promise<T>) =>
    unlessTaken(write, () => {
      throw apiError(400, [taken('Name')]);
    });

  return {
    async list(projectId: number, search: string | null | undefined, page: PageRequest) {
      const items = await store.page(projectId, search, page.perPage, page.offset);
      return { items, total: await totalFor(page, items.length, () => store.count(projectId, search)) };
    },

    async findByIid(projectId: number, iid: string): Promise<FeatureFlagUserListRow | null> {
      const found = /^\d+$/.test(iid) ? recordId(iid) : null;
      return found === null ? null : ((await store.findByIid(projectId, found)) ?? null);
    },

    async create(projectId: number, values: { name: string; user_xids: string }): Promise<FeatureFlagUserListRow> {
      await validate(projectId, values, null);
      return nameTakenOnConflict(store.insert(projectId, { name: values.name, userXids: values.user_xids }));
    },

    async update(list: FeatureFlagUserListRow, changes: { name?: string | null; user_xids?: string | null }): Promise<FeatureFlagUserListRow> {
      const values: UserListValues = {
        name: changes.name !== undefined ? changes.name : list.name,
        user_xids: changes.user_xids !== undefined ? changes.user_xids : list.userXids,
      };
      await validate(list.projectId, values, list.id);
      if (values.name === list.name && values.user_xids === list.userXids) return list;
      return nameTakenOnConflict(store.update(list, { name: values.name!, userXids: values.user_xids! }));
    },

    /** 409 while a strategy uses the list. */
    async remove(list: FeatureFlagUserListRow) {
      const inUse = apiError(409, ['User list is associated with a strategy']);
      if (await flags.listInUse(list.id)) throw inUse;
      try {
        await store.remove(list.id);
      } catch (error) {
        // A strategy took the list up since the check above.
        if (isForeignKeyViolation(error)) throw inUse;
        throw error;
      }
    },
  };
}

export type UserListService = ReturnType<typeof createUserListService>;
