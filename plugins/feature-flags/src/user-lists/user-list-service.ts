/** Feature flag user lists: named sets of external user ids, addressed by a per-project iid. */
import { apiError, TEXT_LIMIT, type PageRequest } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import { nextInternalId } from '../shared/internal-ids.js';
import { nameTaken } from '../shared/name-taken.js';
import { pagedRows } from '../shared/paged-rows.js';
import type { UserListRow } from '../shared/rows.js';
import { isForeignKeyViolation, nameTakenOnConflict } from '../shared/constraint-violations.js';
import { userXidsMessage, validUserXids } from '../shared/user-xids.js';
import { blank, charLength, isBlank, longerThan, taken, tooLong, tooShort } from '../shared/validation-messages.js';
import { whereNameMatches } from './user-list-search.js';

const NAME_LIMIT = 255;

interface UserListValues {
  name: string | null;
  user_xids: string | null;
}

export function createUserListService(db: Knex) {
  const lists = () => db<UserListRow>('feature_flag_user_lists');

  async function messagesFor(projectId: number, values: UserListValues, exceptId: number | null): Promise<string[]> {
    const messages: string[] = [];
    const name = values.name ?? '';
    if (isBlank(name)) messages.push(blank('Name'));
    if (await nameTaken(db, 'feature_flag_user_lists', projectId, name, exceptId)) messages.push(taken('Name'));
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

  return {
    async list(projectId: number, search: string | null | undefined, page: PageRequest) {
      const query = whereNameMatches(lists().where('project_id', projectId), 'name', search);
      const { rows, total } = await pagedRows<UserListRow>(query, page, ['id']);
      return { items: rows, total };
    },

    async findByIid(projectId: number, iid: string): Promise<UserListRow | null> {
      if (!/^\d+$/.test(iid)) return null;
      return (
        (await lists()
          .where({ project_id: projectId, iid: Number(iid) })
          .first()) ?? null
      );
    },

    async create(projectId: number, values: { name: string; user_xids: string }): Promise<UserListRow> {
      await validate(projectId, values, null);
      const id = await nameTakenOnConflict(() =>
        db.transaction(async (trx) => {
          const now = new Date();
          const iid = await nextInternalId(trx, projectId, 'user_lists');
          const [row] = await trx('feature_flag_user_lists')
            .insert({ project_id: projectId, iid, name: values.name, user_xids: values.user_xids, created_at: now, updated_at: now })
            .returning('id');
          return (row as { id: number }).id;
        }),
      );
      return (await lists().where('id', id).first())!;
    },

    async update(list: UserListRow, changes: { name?: string | null; user_xids?: string | null }): Promise<UserListRow> {
      const values: UserListValues = {
        name: changes.name !== undefined ? changes.name : list.name,
        user_xids: changes.user_xids !== undefined ? changes.user_xids : list.user_xids,
      };
      await validate(list.project_id, values, list.id);
      if (values.name !== list.name || values.user_xids !== list.user_xids) {
        await nameTakenOnConflict(() => lists().where('id', list.id).update({ name: values.name!, user_xids: values.user_xids!, updated_at: new Date() }));
      }
      return (await lists().where('id', list.id).first())!;
    },

    /** 409 while a strategy uses the list. */
    async remove(list: UserListRow) {
      const inUse = apiError(409, ['User list is associated with a strategy']);
      if (await db('feature_flag_strategies').where('user_list_id', list.id).first('id')) throw inUse;
      try {
        await lists().where('id', list.id).delete();
      } catch (error) {
        // A strategy took the list up since the check above.
        if (isForeignKeyViolation(error)) throw inUse;
        throw error;
      }
    },
  };
}

export type UserListService = ReturnType<typeof createUserListService>;
