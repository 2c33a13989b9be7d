/**
 * Iterations: GitLab's list with its filters over a group's lineage, the lookups other
 * plugins use, and manual iterations of a cadence with GitLab's validations.
 */
import {
  type EventBus,
  longerThan,
  notFound,
  patchFrom,
  type Principal,
  TEXT_LIMIT,
  tooLongMessage,
  type Transaction,
  validationFailed,
} from '@forgekit/kernel';
import { iterationEvents, type Iteration, type IterationCadence, type IterationsService } from '../contracts.js';
import type { GroupDirectory, IterationGroup } from '../groups/group-directory.js';
import { addYears, todayDate } from './iteration-dates.js';
import { presentIteration } from './iteration-presenter.js';
import type { IterationQuery, IterationStore, NewIteration, SearchField, StateFilter, StoredIteration } from './iteration-store.js';

export const TITLE_LIMIT = 255;
export const MAX_YEARS_AHEAD = 500;

export interface ListOptions {
  state?: StateFilter;
  search?: string;
  in?: readonly SearchField[];
  includeAncestors: boolean;
  includeDescendants: boolean;
  updatedBefore?: Date;
  updatedAfter?: Date;
}

export interface IterationInput {
  title?: string | null;
  description?: string | null;
  start_date?: string;
  due_date?: string;
}

type Errors = Record<string, string[]>;
const add = (errors: Errors, field: string, message: string) => {
  errors[field] = [...(errors[field] ?? []), message];
};

export function createIterationService(store: IterationStore, groups: GroupDirectory, events: EventBus, externalUrl: string) {
  const webUrl = (fullPath: string, id: number) => `${externalUrl}/groups/${fullPath}/-/iterations/${id}`;

  /** Iterations with their web URLs; `known` groups need no lookup. An iteration whose group is gone (it goes with it) is left out. */
  async function withUrls(rows: StoredIteration[], known: readonly IterationGroup[] = []): Promise<Iteration[]> {
    const paths = new Map(known.map((group) => [group.id, group.fullPath]));
    const missing = rows.map((row) => row.groupId).filter((id) => !paths.has(id));
    if (missing.length > 0) for (const [id, path] of await groups.fullPaths(missing)) paths.set(id, path);
    return rows.flatMap((row) => {
      const path = paths.get(row.groupId);
      return path === undefined ? [] : [{ ...row, webUrl: webUrl(path, row.id) }];
    });
  }

  /** The groups a list spans: the group, its readable ancestors, and (if asked) its readable descendants. */
  async function scope(user: Principal | null, group: IterationGroup, options: ListOptions): Promise<IterationGroup[]> {
    const spanned = [group];
    const add = (candidate: IterationGroup | null) => candidate && spanned.push(candidate);
    if (options.includeAncestors) {
      for (const id of group.lineage.filter((id) => id !== group.id)) add(await groups.readable(user, id));
    }
    if (options.includeDescendants) {
      for (const id of await store.groupsWithIterations()) {
        if (spanned.some((known) => known.id === id)) continue;
        const candidate = await groups.readable(user, id);
        if (candidate?.lineage.includes(group.id)) add(candidate);
      }
    }
    return spanned;
  }

  /** GitLab's model errors for an iteration's dates and title within its cadence. */
  async function validate(cadence: IterationCadence, next: NewIteration, tx: Transaction, exceptId = 0) {
    const errors: Errors = {};
    if (next.title !== null && longerThan(next.title, TITLE_LIMIT)) add(errors, 'title', tooLongMessage(TITLE_LIMIT));
    if (next.description !== null && longerThan(next.description, TEXT_LIMIT)) add(errors, 'description', tooLongMessage(TEXT_LIMIT));
    const limit = addYears(todayDate(), MAX_YEARS_AHEAD);
    if (next.startDate > limit) add(errors, 'start_date', `cannot be more than ${MAX_YEARS_AHEAD} years in the future`);
    if (next.dueDate > limit) add(errors, 'due_date', `cannot be more than ${MAX_YEARS_AHEAD} years in the future`);
    if (next.dueDate < next.startDate) add(errors, 'due_date', 'must be greater than start date');
    if (cadence.automatic) add(errors, 'base', 'Iterations cannot be manually added to cadences that use automatic scheduling');
    else if (!errors.due_date && (await store.overlaps(cadence.id, next.startDate, next.dueDate, exceptId, tx))) {
      add(errors, 'base', 'Dates cannot overlap with other existing Iterations within this iterations cadence');
    }
    if (next.title !== null && (await store.titleTaken(cadence.id, next.title, exceptId, tx))) {
      add(errors, 'title', 'already being used for another iteration within this cadence.');
    }
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  const contract: IterationsService = {
    async forProject(projectId, iterationId) {
      const [group, iteration] = await Promise.all([groups.projectLineage(projectId), store.byId(iterationId)]);
      if (!group || !iteration || !group.lineage.includes(iteration.groupId)) return null;
      return (await withUrls([iteration], [group]))[0]!;
    },
    async byIds(ids) {
      return withUrls(await store.byIds(ids));
    },
    stateOf: (iteration) => presentIteration(iteration).state,
    entity: (iteration) => presentIteration(iteration),
  };

  return {
    ...contract,

    async list(user: Principal | null, group: IterationGroup, options: ListOptions, limit: number, offset: number) {
      const spanned = await scope(user, group, options);
      const query: IterationQuery = {
        groupIds: spanned.map((known) => known.id),
        state: options.state,
        search: options.search,
        in: options.in,
        updatedBefore: options.updatedBefore,
        updatedAfter: options.updatedAfter,
      };
      const rows = await store.list(query, limit, offset);
      return { items: await withUrls(rows, spanned), count: () => store.count(query) };
    },

    /** A group's iteration by id, or `404 Iteration Not Found`. */
    async find(group: IterationGroup, id: number): Promise<Iteration> {
      const row = await store.byId(id);
      if (!row || row.groupId !== group.id) throw notFound('Iteration');
      return (await withUrls([row], [group]))[0]!;
    },

    async create(group: IterationGroup, cadence: IterationCadence, input: IterationInput & { start_date: string; due_date: string }): Promise<Iteration> {
      const next: NewIteration = { title: input.title ?? null, description: input.description ?? null, startDate: input.start_date, dueDate: input.due_date };
      const [created] = await store.insert(group.id, cadence.id, async (tx) => {
        await validate(cadence, next, tx);
        return [next];
      });
      await events.emit(iterationEvents.created, { iterationId: created!.id, groupId: group.id });
      return (await withUrls([created!], [group]))[0]!;
    },

    async update(group: IterationGroup, cadence: IterationCadence, previous: Iteration, input: IterationInput): Promise<Iteration> {
      const changes = patchFrom<NewIteration, IterationInput>(input, {
        title: 'title',
        description: 'description',
        start_date: 'startDate',
        due_date: 'dueDate',
      });
      const next: NewIteration = {
        title: previous.title,
        description: previous.description,
        startDate: previous.startDate,
        dueDate: previous.dueDate,
        ...changes,
      };
      const updated = await store.update(previous, changes, (tx) =>
        validate({ ...cadence, automatic: cadence.automatic && changesDates(changes) }, next, tx, previous.id),
      );
      const changed = Object.fromEntries(
        (Object.keys(changes) as (keyof NewIteration)[])
          .filter((key) => previous[key] !== updated[key])
          .map((key) => [snake(key), { previous: previous[key], current: updated[key] }]),
      );
      if (Object.keys(changed).length > 0) await events.emit(iterationEvents.updated, { iterationId: previous.id, groupId: group.id, changes: changed });
      return (await withUrls([updated], [group]))[0]!;
    },

    async remove(iteration: Iteration) {
      await store.remove(iteration);
      await events.emit(iterationEvents.deleted, { iterationId: iteration.id, groupId: iteration.groupId });
    },

    async removeAllOfGroup(groupId: number) {
      const ids = await store.idsOfGroup(groupId);
      await store.removeOfGroup(groupId);
      for (const iterationId of ids) await events.emit(iterationEvents.deleted, { iterationId, groupId });
    },
  };
}

/** An automatic cadence's iterations keep their dates; their titles and descriptions may change. */
const changesDates = (changes: Partial<NewIteration>) => changes.startDate !== undefined || changes.dueDate !== undefined;
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export type IterationService = ReturnType<typeof createIterationService>;
