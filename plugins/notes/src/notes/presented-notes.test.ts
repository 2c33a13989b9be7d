import { kernelServices, type Kernel } from '@forgekit/kernel';
import { statementsDuring } from '@forgekit/testing';
import { createSharedDatabaseApps, type SharedDatabaseApps, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notesServiceRef } from '../contracts.js';
import { notesPlugin } from '../plugin.js';
import { noteableFixture } from '../testing/noteable-fixture.js';

type Listed = Record<string, any>;

const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

/** Note lists keep each note's JSON in the presented cache, by the note's version and its author's and resolver's. */
describe('note lists from the presented cache', () => {
  let app: TestApp;
  let shared: SharedDatabaseApps;
  /** A second server process's kernel on the same database. */
  let other: Kernel;
  let issueNotes: string;
  let mergeRequestNotes: string;
  let threadId: string;

  const listOn = async (kernel: Kernel, path: string, query = 'per_page=100') => {
    const response = await kernel.fetch(new Request(`http://localhost${path}?${query}`, { headers: { 'PRIVATE-TOKEN': app.tokens.maintainer! } }));
    expect(response.status).toBe(200);
    return response.text();
  };
  const noteOn = async (kernel: Kernel, path: string, id: number): Promise<Listed> => {
    const found = (JSON.parse(await listOn(kernel, path)) as Listed[]).find((note) => note.id === id);
    expect(found).toBeDefined();
    return found!;
  };
  const comment = async (body: string, token: string, internal = false) => {
    const created = await app.post(issueNotes, { body, internal }, { token });
    expect(created.status).toBe(201);
    return created.body.id as number;
  };

  beforeAll(async () => {
    shared = await createSharedDatabaseApps([notesPlugin, noteableFixture]);
    app = shared.app;
    other = await shared.kernelOnSameDatabase('other');
    issueNotes = `/api/v4/projects/${app.project.id}/issues/7/notes`;
    mergeRequestNotes = `/api/v4/projects/${app.project.id}/merge_requests/3/notes`;
    await comment('A *first* comment', 'developer');
    await comment('An internal one', 'maintainer', true);
    await app.kernel.resolve(notesServiceRef).recordSystemNote({
      noteableType: 'Issue',
      noteableId: 700,
      noteableIid: 7,
      projectId: app.project.id,
      authorId: app.users.reporter!.id,
      body: 'changed the description',
    });
    const thread = await app.post(`/api/v4/projects/${app.project.id}/merge_requests/3/discussions`, { body: 'A thread' }, { token: 'developer' });
    expect(thread.status).toBe(201);
    threadId = thread.body.id;
    expect(
      (await app.put(`/api/v4/projects/${app.project.id}/merge_requests/3/discussions/${thread.body.id}`, { resolved: true }, { token: 'maintainer' })).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await other?.stop();
    await shared?.close();
  });

  it('answers the same bytes on a hit as the presenter does on a miss', async () => {
    // A kernel that keeps nothing presents every note afresh.
    const uncached = await shared.kernelOnSameDatabase('uncached', { presentedCacheBytes: 0 });
    try {
      for (const [path, query] of [
        [issueNotes, 'per_page=100'],
        [issueNotes, 'per_page=2&page=2&order_by=updated_at&sort=asc'],
        [issueNotes, 'activity_filter=only_comments'],
        [mergeRequestNotes, 'per_page=100'],
      ] as const) {
        const fresh = await listOn(uncached, path, query);
        expect(await listOn(other, path, query)).toBe(fresh);
        expect(await listOn(other, path, query)).toBe(fresh);
      }
    } finally {
      await uncached.stop();
    }
  });

  it('lists discussions from the same kept notes, with the same bytes as the presenter', async () => {
    const issueDiscussions = `/api/v4/projects/${app.project.id}/issues/7/discussions`;
    const reply = await app.post(
      `${issueDiscussions}/${(await app.post(issueDiscussions, { body: 'A question' }, { token: 'developer' })).body.id}/notes`,
      { body: 'An answer' },
      { token: 'maintainer' },
    );
    expect(reply.status).toBe(201);
    const mergeRequestDiscussions = `/api/v4/projects/${app.project.id}/merge_requests/3/discussions`;
    const uncached = await shared.kernelOnSameDatabase('uncached discussions', { presentedCacheBytes: 0 });
    try {
      const cache = other.resolve(kernelServices.presented);
      for (const [path, query] of [
        [issueDiscussions, 'per_page=100'],
        [issueDiscussions, 'per_page=2&page=2'],
        [mergeRequestDiscussions, 'per_page=100'],
      ] as const) {
        const fresh = await listOn(uncached, path, query);
        expect(await listOn(other, path, query)).toBe(fresh);
        const hits = cache.stats().hits;
        expect(await listOn(other, path, query)).toBe(fresh);
        expect(cache.stats().hits, path).toBeGreaterThan(hits);
      }
      // The notes list and the discussions list keep the same note once.
      await listOn(other, issueNotes);
      const hits = cache.stats().hits;
      await listOn(other, issueDiscussions);
      expect(cache.stats().hits - hits).toBe((JSON.parse(await listOn(uncached, issueDiscussions)) as Listed[]).flatMap((thread) => thread.notes).length);
    } finally {
      await uncached.stop();
    }
  });

  it.skipIf(onPostgres)('reads a page once while nothing is committed, and keeps internal notes from those who may not see them', async () => {
    const noteReads = async (run: () => Promise<unknown>) => (await statementsDuring(other, run)).filter((sql) => /from `notes`/.test(sql));
    const first = await listOn(other, issueNotes);
    expect(await noteReads(async () => expect(await listOn(other, issueNotes)).toBe(first))).toEqual([]);
    // Other filters and another page read their own.
    expect((await noteReads(() => listOn(other, issueNotes, 'activity_filter=only_comments'))).length).toBeGreaterThan(0);
    expect((await noteReads(() => listOn(other, issueNotes, 'per_page=1&page=2'))).length).toBeGreaterThan(0);
    // A guest is not sent the page with internal notes.
    const asGuest = async () => {
      const response = await other.fetch(new Request(`http://localhost${issueNotes}?per_page=100`, { headers: { 'PRIVATE-TOKEN': app.tokens.guest! } }));
      expect(response.status).toBe(200);
      return (await response.json()) as Listed[];
    };
    for (let i = 0; i < 2; i++) {
      const seen = await asGuest();
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.some((note) => note.internal)).toBe(false);
    }
    expect((JSON.parse(await listOn(other, issueNotes)) as Listed[]).some((note) => note.internal)).toBe(true);
  });

  it('shows at once, on another process, a change to a note', async () => {
    await listOn(other, issueNotes);
    expect((await app.put(`${issueNotes}/1`, { body: 'An edited comment' }, { token: 'developer' })).status).toBe(200);
    expect((await noteOn(other, issueNotes, 1)).body).toBe('An edited comment');
    await listOn(other, issueNotes);
    expect((await app.put(`${issueNotes}/2`, { body: 'No longer internal', confidential: false }, { token: 'maintainer' })).status).toBe(200);
    expect((await noteOn(other, issueNotes, 2)).internal).toBe(false);
  });

  it('shows at once a change to the resolution of a thread', async () => {
    const [note] = JSON.parse(await listOn(other, mergeRequestNotes)) as Listed[];
    expect(note).toMatchObject({ resolved: true, resolved_by: { username: 'maintainer' } });
    const thread = `/api/v4/projects/${app.project.id}/merge_requests/3/discussions/${threadId}`;
    expect((await app.put(thread, { resolved: false }, { token: 'maintainer' })).status).toBe(200);
    expect(await noteOn(other, mergeRequestNotes, note!.id)).toMatchObject({ resolved: false, resolved_by: null });
    expect((await app.put(thread, { resolved: true }, { token: 'developer' })).status).toBe(200);
    expect((await noteOn(other, mergeRequestNotes, note!.id)).resolved_by).toMatchObject({ username: 'developer' });
  });

  it('shows at once a change to the author or the resolver of a note', async () => {
    await listOn(other, issueNotes);
    await listOn(other, mergeRequestNotes);
    const developer = app.users.developer!.id;
    expect((await app.put(`/api/v4/users/${developer}`, { name: 'Renamed Developer' }, { token: 'admin' })).status).toBe(200);
    expect((await noteOn(other, issueNotes, 1)).author.name).toBe('Renamed Developer');
    const [resolved] = JSON.parse(await listOn(other, mergeRequestNotes)) as Listed[];
    expect(resolved!.resolved_by.name).toBe('Renamed Developer');
    expect((await app.post(`/api/v4/users/${developer}/block`, {}, { token: 'admin' })).status).toBe(201);
    expect((await noteOn(other, issueNotes, 1)).author.state).toBe('blocked');
  });

  it('shows at once a note handed to the Ghost User when its author is deleted', async () => {
    const reporter = app.users.reporter!.id;
    const systemNote = (JSON.parse(await listOn(other, issueNotes)) as Listed[]).find((note) => note.system)!;
    expect(systemNote.author.id).toBe(reporter);
    expect((await app.delete(`/api/v4/users/${reporter}`, { token: 'admin' })).status).toBe(204);
    expect((await noteOn(other, issueNotes, systemNote.id)).author.username).toBe('ghost');
  });

  it('presents a page afresh while another plugin adds fields to one of its notes', async () => {
    let calls = 0;
    other.resolve(notesServiceRef).extendFields(async (notes) => {
      calls += 1;
      return new Map(notes.filter((note) => note.body.includes('[extended]')).map((note) => [note.id, { extended_call: calls }]));
    });
    const plain = await listOn(other, issueNotes);
    expect(await listOn(other, issueNotes)).toBe(plain);
    await comment('A note another plugin extends [extended]', 'maintainer');
    const extended = async () =>
      (JSON.parse(await listOn(other, issueNotes)) as Listed[]).find((note) => note.body.includes('[extended]'))!.extended_call as number;
    const first = await extended();
    // The same mark: a kept page would answer the first call's field again.
    expect(await extended()).toBeGreaterThan(first);
  });
});
