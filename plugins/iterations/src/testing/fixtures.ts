/** Helpers the iterations tests share: dates around today and a manual cadence with iterations. */
import type { TestApp } from '@forgekit/plugin-core/testing';
import { addDays, todayDate } from '../iterations/iteration-dates.js';

/** A date `days` from today (negative: in the past). */
export const day = (days: number) => addDays(todayDate(), days);

export async function manualCadence(app: TestApp, groupId: number, title = 'Manual'): Promise<number> {
  const res = await app.post(`/api/v4/groups/${groupId}/iteration_cadences`, { title, automatic: false }, { token: 'owner' });
  if (res.status !== 201) throw new Error(`cadence not created: ${res.status} ${res.text}`);
  return res.body.id;
}

export async function manualIteration(app: TestApp, groupId: number, cadenceId: number, body: Record<string, unknown>) {
  const res = await app.post(`/api/v4/groups/${groupId}/iteration_cadences/${cadenceId}/iterations`, body, { token: 'owner' });
  if (res.status !== 201) throw new Error(`iteration not created: ${res.status} ${res.text}`);
  return res.body as { id: number; iid: number; sequence: number; title: string | null; state: number };
}
