import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements } from '@forgekit/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let base: string;
let labelIds: Record<string, number>;
let milestoneId: number;

const issue = async (iid: number) => (await app.get(`${base}/issues/${iid}`, { token: 'maintainer' })).body;

beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  base = `/api/v4/projects/${app.project.id}`;
  labelIds = {};
  for (const name of ['bug', 'needs review']) labelIds[name] = (await app.post(`${base}/labels`, { name, color: '#ff0000' }, { token: 'maintainer' })).body.id;
  milestoneId = (await app.post(`${base}/milestones`, { title: 'v1.0' }, { token: 'maintainer' })).body.id;
  await app.post(`${base}/issues`, { title: 'First' }, { token: 'reporter' });
});
afterAll(() => app.close());

describe('quick actions in issue notes', () => {
  it('answers 202 with the changes and a summary for a body of only commands, and applies them', async () => {
    const res = await app.post(
      `${base}/issues/1/notes`,
      { body: '/label ~bug ~"needs review"\n/milestone %v1.0\n/assign @developer\n/close' },
      { token: 'maintainer' },
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      commands_changes: {
        add_label_ids: [labelIds.bug, labelIds['needs review']],
        milestone_id: milestoneId,
        assignee_ids: [app.users.developer.id],
        state_event: 'close',
      },
      summary: ['Added ~bug ~"needs review" labels.', 'Set the milestone to %v1.0.', 'Assigned @developer.', 'Closed this issue.'],
    });
    expect(await issue(1)).toMatchObject({
      state: 'closed',
      labels: ['bug', 'needs review'],
      milestone: { id: milestoneId },
      assignees: [{ username: 'developer' }],
      user_notes_count: 0,
    });
  });

  it('keeps the rest of a body as the note and reports what the commands changed', async () => {
    const res = await app.post(`${base}/issues/1/notes`, { body: 'Not done yet\n/reopen\n/unlabel ~bug' }, { token: 'maintainer' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: 'Not done yet', commands_changes: { state_event: 'reopen', remove_label_ids: [labelIds.bug] } });
    expect(await issue(1)).toMatchObject({ state: 'opened', labels: ['needs review'], user_notes_count: 1 });
  });

  it('leaves commands in code blocks alone, and as text those the author may not use: any for who may not change the issue, /reopen on an open one', async () => {
    const fenced = await app.post(`${base}/issues/1/notes`, { body: '```\n/close\n```' }, { token: 'maintainer' });
    expect(fenced.status).toBe(201);
    expect(fenced.body.body).toBe('```\n/close\n```');
    const guest = await app.post(`${base}/issues/1/notes`, { body: '/close' }, { token: 'guest' });
    expect(guest).toMatchObject({ status: 201, body: { body: '/close', system: false } });
    expect((await issue(1)).state).toBe('opened');
    const reopen = await app.post(`${base}/issues/1/notes`, { body: 'Again?\n/reopen\n/unlabel ~"needs review"' }, { token: 'maintainer' });
    expect(reopen).toMatchObject({ status: 201, body: { body: 'Again?\n/reopen', commands_changes: { remove_label_ids: [labelIds['needs review']] } } });
    expect(await issue(1)).toMatchObject({ state: 'opened', labels: [] });
  });

  it("reads the caller's access and the issue once for both the commands' conditions and their run", async () => {
    const created = await app.post(`${base}/issues`, { title: 'Counted' }, { token: 'reporter' });
    const iid = created.body.iid as number;
    const log = recordStatements(app.kernel);
    try {
      const sql = await log.during(async () => {
        expect((await app.post(`${base}/issues/${iid}/notes`, { body: '/assign @developer' }, { token: 'maintainer' })).status).toBe(202);
      });
      const q = '[`"]';
      const matching = (pattern: string) => sql.filter((statement) => new RegExp(pattern).test(statement));
      // The project with the caller's levels: the archived-project guard's read (the note route takes it over), and one for the quick actions.
      expect(
        matching(`from ${q}projects${q} as ${q}p${q} inner join ${q}namespaces${q} as ${q}n${q} on .* where ${q}p${q}.${q}id${q} = \\?$`),
        sql.join('\n'),
      ).toHaveLength(2);
      // The issue by id, for the quick actions (the note route finds it by iid).
      expect(matching(`from ${q}issues${q} where ${q}id${q} in`), sql.join('\n')).toHaveLength(1);
    } finally {
      log.stop();
    }
    expect((await issue(iid)).assignees).toMatchObject([{ username: 'developer' }]);
  });
});
