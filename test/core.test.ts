import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

describe('core through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let api: InstanceType<typeof Gitlab>;
  beforeAll(async () => {
    server = await startListeningServer();
    api = new Gitlab({ host: server.url, token: server.rootToken });
  });
  afterAll(() => server?.close());

  it('reads the current user', async () => {
    const user = await api.Users.showCurrentUser();
    expect(user.username).toBe('root');
    expect(user.is_admin).toBe(true);
  });
});
