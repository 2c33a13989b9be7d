/** Small helpers for driving a listening server through the real `@gitbeaker/rest` client. */
import { GitbeakerRequestError, Gitlab } from '@gitbeaker/rest';
import type { ListeningServer } from './listening-server.js';

export type Api = Gitlab<false>;

export const clientFor = (server: Pick<ListeningServer, 'url'>, token: string): Api => new Gitlab<false>({ host: server.url, token });

export interface RequestFailure {
  status: number;
  /** What gitbeaker surfaces: the body's `error` or `message` (JSON-encoded when not a string). */
  description: string;
}

/** The status and description of the `GitbeakerRequestError` a call throws; fails if it resolves. */
export async function failureOf(call: Promise<unknown>): Promise<RequestFailure> {
  let result: unknown;
  try {
    result = await call;
  } catch (error) {
    if (!(error instanceof GitbeakerRequestError)) throw error;
    return { status: error.cause!.response.status, description: error.cause!.description };
  }
  throw new Error(`expected the request to fail, got ${JSON.stringify(result)}`);
}

export interface UserWithToken {
  id: number;
  username: string;
  token: string;
  api: Api;
}

/** An admin creates the user (with a password) and an `api` token for them. */
export async function createUserWithToken(admin: Api, server: Pick<ListeningServer, 'url'>, username: string): Promise<UserWithToken> {
  const user = await admin.Users.create({
    username,
    name: username[0]!.toUpperCase() + username.slice(1),
    email: `${username}@example.com`,
    password: `${username}-Secret-123`,
    skipConfirmation: true,
  });
  const { token } = await admin.Users.createPersonalAccessToken(user.id, `${username}-api`, ['api']);
  return { id: user.id, username: user.username, token: token!, api: clientFor(server, token!) };
}
