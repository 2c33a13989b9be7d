import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements, type StatementLog } from '@forgekit/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

/** A page of issues costs the same number of statements whatever its size: every lookup is batched. */
describe('SQL statements per issue list', () => {
  let app: TestApp;
  let base: string;
  let log: StatementLog;

  const statementsOf = (perPage: number) =>
    log.during(async () => {
      const res = await app.get(`${base}/issues`, { token: 'developer', query: { per_page: perPage } });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(perPage);
    });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
    base = `/api/v4/projects/${app.project.id}`;
    const milestone = await app.post(`${base}/milestones`, { title: 'Budget' }, { token: 'maintainer' });
    for (let i = 0; i < 6; i++) {
      await app.post(
        `${base}/issues`,
        { title: `Budget ${i}`, labels: `l${i},shared`, milestone_id: milestone.body.id, assignee_ids: [app.users.developer.id] },
        { token: 'maintainer' },
      );
    }
    log = recordStatements(app.kernel);
  });
  afterAll(async () => {
    log?.stop();
    await app?.close();
  });

  it('does not grow with the page', async () => {
    const two = await statementsOf(2);
    const five = await statementsOf(5);
    expect(five.length, five.join('\n')).toBe(two.length);
    // token, project, the page's keys with their total, the issues without a kept answer, assignees and label links,
    // note counts, award votes, labels, milestones (their project's path is known), and one per distinct user
    // (here an author and an assignee)
    expect(five.length, five.join('\n')).toBeLessThanOrEqual(11);
  });

  it('reads no issue whole once its answer is kept', async () => {
    await statementsOf(5);
    const kept = await statementsOf(5);
    expect(kept.filter((sql) => /^select "id", "project_id", "iid", "title"/.test(sql))).toEqual([]);
    expect(kept.length, kept.join('\n')).toBeLessThanOrEqual(10);
  });
});
