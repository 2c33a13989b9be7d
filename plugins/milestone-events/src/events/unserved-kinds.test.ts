import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { milestoneEventsPlugin } from '../plugin.js';

describe('milestone events of an item kind no plugin serves', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ plugins: [milestonesPlugin, milestoneEventsPlugin] });
  });
  afterAll(() => app?.close());

  it('answers the project first, then the missing item', async () => {
    const path = (kind: string) => `/api/v4/projects/${app.project.id}/${kind}/1/resource_milestone_events`;
    expect((await app.get(path('merge_requests'), { token: 'guest' })).body).toEqual({ message: '404 MergeRequest Not Found' });
    expect((await app.get(path('issues'), { token: 'guest' })).body).toEqual({ message: '404 Issue Not Found' });
    expect((await app.get(`${path('issues')}/1`, { token: 'guest' })).body).toEqual({ message: '404 Issue Not Found' });
    expect((await app.get(path('merge_requests'), { token: 'nonMember' })).body).toEqual({ message: '404 Project Not Found' });
  });
});
