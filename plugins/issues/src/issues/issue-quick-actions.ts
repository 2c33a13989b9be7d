/** The quick actions a note on an issue may hold: `/close`, `/reopen`, `/label`, `/unlabel`, `/milestone`, `/assign`. */
import type { Principal } from '@forgekit/kernel';
import type { AccessService, ProjectAccess, UserService } from '@forgekit/plugin-core/contracts';
import type { LabelsService } from '@forgekit/plugin-labels/contracts';
import type { MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { FoundNoteable, QuickAction, QuickActionResult, QuickActions } from '@forgekit/plugin-notes/contracts';
import type { IssueRow } from '../entities/issue.js';
import type { UpdateInput } from './issue-params.js';
import type { IssueService } from './issue-service.js';
import type { IssueStore } from './issue-store.js';

interface Dependencies {
  service: IssueService;
  store: IssueStore;
  access: AccessService;
  users: UserService;
  labels: LabelsService;
  milestones: MilestonesService;
}

// `~name`, `~"two words"`, `%name`, `%"two words"`, `@username`: the names a quick action's arguments reference.
const referencesIn = (args: string, sigil: '~' | '%' | '@') =>
  [...args.matchAll(new RegExp(`\\${sigil}(?:"([^"]+)"|([^\\s~%@"]+))`, 'g'))].map((match) => (match[1] ?? match[2])!);
const mention = (sigil: string, name: string) => (/\s/.test(name) ? `${sigil}"${name}"` : `${sigil}${name}`);

interface Target {
  projectAccess: ProjectAccess;
  issue: IssueRow | undefined;
  mayUpdate: boolean;
}

export function issueQuickActions({ service, store, access, users, labels, milestones }: Dependencies): QuickActions {
  /**
   * The caller's access, the issue and whether the caller may update it, as `available` read them
   * for `run` of the same note: the notes plugin hands both the noteable it found for the request.
   */
  const read = new WeakMap<FoundNoteable, { user: Principal; target: Promise<Target> }>();
  const readTarget = async (user: Principal, noteable: FoundNoteable): Promise<Target> => {
    const projectAccess = await access.requireProject(user, String(noteable.projectId));
    const [issue] = await store.byIds([noteable.id]);
    return { projectAccess, issue, mayUpdate: !!issue && (await service.canUpdate(user, projectAccess, issue)) };
  };
  const target = (user: Principal, noteable: FoundNoteable): Promise<Target> => {
    const earlier = read.get(noteable);
    if (earlier?.user === user) return earlier.target;
    const found = readTarget(user, noteable);
    read.set(noteable, { user, target: found });
    return found;
  };

  return {
    names: ['close', 'reopen', 'label', 'unlabel', 'milestone', 'assign'],
    // GitLab's conditions: only who may update the issue has commands, `/close` only on an open
    // issue and `/reopen` only on a closed one; the rest stay in the note as text.
    async available(user: Principal, noteable: FoundNoteable) {
      const { issue, mayUpdate } = await target(user, noteable);
      if (!issue || !mayUpdate) return [];
      return ['label', 'unlabel', 'milestone', 'assign', issue.state === 'opened' ? 'close' : 'reopen'];
    },
    async run(user: Principal, noteable: FoundNoteable, actions: readonly QuickAction[]): Promise<QuickActionResult> {
      const { projectAccess, issue, mayUpdate } = await target(user, noteable);
      // Taken once: what the run changes is not what a later run should start from.
      read.delete(noteable);
      // GitLab runs only the actions the author may take; the others vanish from the note.
      if (!issue || !mayUpdate) return { changes: {}, summary: [] };
      const project = projectAccess.project;
      const input: Partial<UpdateInput> = {};
      const changes: Record<string, unknown> = {};
      const summary: string[] = [];
      for (const { name, args } of actions) {
        if (name === 'close' || name === 'reopen') {
          input.state_event = name;
          changes.state_event = name;
          summary.push(name === 'close' ? 'Closed this issue.' : 'Reopened this issue.');
        } else if (name === 'label' || name === 'unlabel') {
          const found = await labels.forProject(project.id, referencesIn(args, '~'));
          const titles = found.map((label) => label.title);
          if (name === 'label' && found.length > 0) {
            input.add_labels = [...(input.add_labels ?? []), ...titles];
            changes.add_label_ids = found.map((label) => label.id);
            summary.push(`Added ${titles.map((title) => mention('~', title)).join(' ')} ${found.length === 1 ? 'label' : 'labels'}.`);
          } else if (name === 'unlabel' && args === '') {
            input.labels = [];
            summary.push('Removed all labels.');
          } else if (name === 'unlabel' && found.length > 0) {
            input.remove_labels = [...(input.remove_labels ?? []), ...titles];
            changes.remove_label_ids = found.map((label) => label.id);
            summary.push(`Removed ${titles.map((title) => mention('~', title)).join(' ')} ${found.length === 1 ? 'label' : 'labels'}.`);
          }
        } else if (name === 'milestone') {
          const [title] = referencesIn(args, '%');
          const groupIds = project.namespace.kind === 'group' ? project.namespace.traversalPath.split('/').filter(Boolean).map(Number) : [];
          const [milestoneId] = title ? await milestones.idsForFilter({ projectIds: [project.id], groupIds }, { title }) : [];
          if (milestoneId !== undefined) {
            input.milestone_id = milestoneId;
            changes.milestone_id = milestoneId;
            summary.push(`Set the milestone to ${mention('%', title!)}.`);
          }
        } else if (name === 'assign') {
          const assignees = (await Promise.all(referencesIn(args, '@').map((username) => users.findByUsername(username)))).flatMap((found) =>
            found ? [found] : [],
          );
          if (assignees.length > 0) {
            input.assignee_ids = assignees.map((assignee) => assignee.id);
            changes.assignee_ids = input.assignee_ids;
            summary.push(`Assigned ${assignees.map((assignee) => `@${assignee.username}`).join(' and ')}.`);
          }
        }
      }
      if (Object.keys(input).length > 0) await service.update(user, projectAccess, issue, input as UpdateInput);
      return { changes, summary };
    },
  };
}
