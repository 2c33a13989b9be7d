/**
 * `forgekit iteration-cadences list|create|update|delete|schedule --group <path> …`: the
 * cadences of a group, as the REST extension manages them, acting as the administrator.
 */
import { parseArgs } from 'node:util';
import type { Kernel, Principal } from '@forgekit/kernel';
import { coreAccessRef, coreUsersRef, ensureRootUser } from '@forgekit/plugin-core';
import { type CadenceInput, iterationCadencesServiceRef } from '@forgekit/plugin-iterations';

export const ITERATION_CADENCES_USAGE = `  forgekit iteration-cadences list --group PATH
  forgekit iteration-cadences create --group PATH --title TITLE [--manual | --start-date YYYY-MM-DD --duration-in-weeks N --iterations-in-advance N]
                                     [--description TEXT] [--roll-over] [--inactive]
  forgekit iteration-cadences update --group PATH --id ID [same options as create, --active]
  forgekit iteration-cadences delete --group PATH --id ID
  forgekit iteration-cadences schedule --group PATH --id ID`;

/** The options every iteration-cadences subcommand accepts. */
export const ITERATION_CADENCE_OPTIONS = {
  group: { type: 'string' },
  id: { type: 'string' },
  title: { type: 'string' },
  description: { type: 'string' },
  manual: { type: 'boolean' },
  automatic: { type: 'boolean' },
  active: { type: 'boolean' },
  inactive: { type: 'boolean' },
  'roll-over': { type: 'boolean' },
  'start-date': { type: 'string' },
  'duration-in-weeks': { type: 'string' },
  'iterations-in-advance': { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof ITERATION_CADENCE_OPTIONS }>>['values'];

const integer = (name: string, text: string | undefined) => {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a whole number`);
  return Number(text);
};

function cadenceInput(values: Values): CadenceInput {
  const input: CadenceInput = {};
  if (values.title !== undefined) input.title = values.title;
  if (values.description !== undefined) input.description = values.description;
  if (values.manual) input.automatic = false;
  if (values.automatic) input.automatic = true;
  if (values.inactive) input.active = false;
  if (values.active) input.active = true;
  if (values['roll-over']) input.roll_over = true;
  if (values['start-date'] !== undefined) input.start_date = values['start-date'];
  input.duration_in_weeks = integer('duration-in-weeks', values['duration-in-weeks']);
  input.iterations_in_advance = integer('iterations-in-advance', values['iterations-in-advance']);
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

/** Runs a subcommand on a booted kernel; the lines it prints (JSON). */
export async function iterationCadencesCommand(kernel: Kernel, sub: string | undefined, args: string[]): Promise<string> {
  const { values } = parseArgs({ args, options: ITERATION_CADENCE_OPTIONS });
  if (!values.group) throw new Error('--group is required');
  const root = await ensureRootUser(kernel.resolve(coreUsersRef));
  const admin: Principal = { id: root.id, username: root.username, name: root.name, isAdmin: true, external: false, state: root.state };
  const { group } = await kernel.resolve(coreAccessRef).requireGroup(admin, values.group);
  const cadences = kernel.resolve(iterationCadencesServiceRef);
  const cadenceId = () => {
    const id = integer('id', values.id);
    if (id === undefined) throw new Error('--id is required');
    return id;
  };
  const show = (value: unknown) => JSON.stringify(value, null, 2);

  switch (sub) {
    case 'list':
      return show((await cadences.list(group.id)).map((cadence) => cadences.entity(cadence)));
    case 'create': {
      if (!values.title) throw new Error('--title is required');
      const created = await cadences.create(group.id, { ...cadenceInput(values), title: values.title });
      await cadences.schedule(created.id);
      return show(cadences.entity(created));
    }
    case 'update': {
      const updated = await cadences.update(await cadences.find(group.id, cadenceId()), cadenceInput(values));
      await cadences.schedule(updated.id);
      return show(cadences.entity(updated));
    }
    case 'delete':
      await cadences.remove(await cadences.find(group.id, cadenceId()));
      return 'deleted';
    case 'schedule': {
      const cadence = await cadences.find(group.id, cadenceId());
      return `${await cadences.schedule(cadence.id)} iterations created`;
    }
    default:
      throw new Error(`Unknown iteration-cadences command '${sub ?? ''}'\nUsage:\n${ITERATION_CADENCES_USAGE}`);
  }
}
