import { randomUUID } from 'node:crypto';
import { JobServiceStoppedError, kernelServices } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookEvents } from '../contracts.js';
import { WebHookDeliveryEntity } from '../entities/web-hook-delivery.js';
import { createLogStore } from '../history/log-store.js';
import { createHookStore } from '../hooks/hook-store.js';
import { webhooksPlugin } from '../plugin.js';
import { startReceiver, type Receiver } from '../testing/receiver.js';
import { createDeliveryService, DELIVER_JOB, DELIVERY_RETRIES, RECOVER_JOB } from './delivery-service.js';
import { createDeliveryStore } from './delivery-store.js';

/**
 * Deliveries are written down until they are recorded, so a lost job is recovered and sent once;
 * retries are GitLab's: an attempt that fails here runs again with the same Idempotency-Key, a
 * receiver's failure is recorded once and never sent again.
 */
describe('waiting deliveries and their retries', () => {
  let app: TestApp;
  let receiver: Receiver;
  let hookId: number;
  let hooksPath: string;

  const database = () => app.kernel.database;
  const waiting = () => database().rows(database().from(WebHookDeliveryEntity).orderBy('id'));
  const history = async () => (await app.get(`${hooksPath}/${hookId}/events`, { token: 'owner' })).body as any[];
  const withKey = (key: string) => receiver.received.filter((request) => request.headers['idempotency-key'] === key);
  const recordedWithKey = async (key: string) => (await history()).filter((event) => event.request_headers['Idempotency-Key'] === key);
  const until = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 15_000, interval: 25 });
  const writeDelivery = (fields: { idempotencyKey: string; attempts?: number; claimedUntil?: Date | null; ref: string }) =>
    database().insert(WebHookDeliveryEntity, {
      hookId,
      trigger: 'push_events',
      payload: JSON.stringify({ object_kind: 'push', ref: fields.ref }),
      idempotencyKey: fields.idempotencyKey,
      eventUuid: randomUUID(),
      attempts: fields.attempts ?? 0,
      claimedUntil: fields.claimedUntil ?? null,
      createdAt: new Date(),
    });
  const publish = (ref: string) =>
    app.kernel.events.emit(webhookEvents.requested, {
      trigger: 'push_events',
      projectId: app.project.id,
      groupId: null,
      payload: { object_kind: 'push', ref },
    });

  /** The plugin's delivery service over this app's tables, with the given history and queue. */
  const deliveryService = (parts: Pick<Parameters<typeof createDeliveryService>[0], 'jobs'> & Partial<Parameters<typeof createDeliveryService>[0]>) => {
    const kernel = app.kernel;
    return createDeliveryService({
      database: kernel.database,
      hooks: createHookStore(kernel.database, kernel.resolve(kernelServices.secrets)),
      logs: createLogStore(kernel.database),
      deliveries: createDeliveryStore(kernel.database),
      metrics: kernel.metrics,
      policy: async () => ({ allowLocal: true, allowlist: [], denyAll: false }),
      autoDisabling: async () => false,
      groupsOfProject: async () => [app.group.id],
      groupsOfGroup: async () => [app.group.id],
      instanceUrl: 'http://localhost',
      userAgent: 'Service/test',
      timeoutMs: 5000,
      log: kernel.log,
      ...parts,
    });
  };

  beforeAll(async () => {
    app = await createTestApp({ plugins: [webhooksPlugin] });
    receiver = await startReceiver();
    await app.put('/api/v4/application/settings', { allow_local_requests_from_web_hooks_and_services: true }, { token: 'admin' });
    hooksPath = `/api/v4/groups/${app.group.id}/hooks`;
    const hook = await app.post(hooksPath, { url: receiver.url('/retries') }, { token: 'owner' });
    expect(hook.status).toBe(201);
    hookId = hook.body.id;
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it('writes a delivery down when the event happens and removes it when the delivery is recorded', async () => {
    await publish('refs/heads/written');
    const request = await receiver.waitFor((r) => r.body?.ref === 'refs/heads/written');
    const key = String(request.headers['idempotency-key']);
    await until(async () => expect(await recordedWithKey(key)).toHaveLength(1));
    await until(async () => expect(await waiting()).toEqual([]));
  });

  it('sends a delivery whose job was lost once, however often it is recovered', async () => {
    const key = randomUUID();
    const id = await writeDelivery({ idempotencyKey: key, ref: 'refs/heads/lost' });
    await app.kernel.jobs.run(RECOVER_JOB);
    await app.kernel.jobs.run(RECOVER_JOB);
    await receiver.waitFor((r) => r.headers['idempotency-key'] === key);
    await until(async () => expect((await waiting()).map((row) => row.id)).not.toContain(id));
    // A job that comes late finds nothing to send.
    await app.kernel.jobs.run(DELIVER_JOB, { deliveryId: id });
    expect(withKey(key)).toHaveLength(1);
    expect(await recordedWithKey(key)).toHaveLength(1);
  });

  it('leaves a delivery an attempt holds until the hold ends, then sends it', async () => {
    const key = randomUUID();
    const id = await writeDelivery({ idempotencyKey: key, ref: 'refs/heads/held', claimedUntil: new Date(Date.now() + 60_000) });
    await app.kernel.jobs.run(DELIVER_JOB, { deliveryId: id });
    expect(withKey(key)).toHaveLength(0);
    expect((await waiting()).find((row) => row.id === id)).toMatchObject({ attempts: 0 });
    await database().update(WebHookDeliveryEntity, { id }, { claimedUntil: new Date(Date.now() - 1000) });
    await app.kernel.jobs.run(DELIVER_JOB, { deliveryId: id });
    expect(withKey(key)).toHaveLength(1);
    expect(await recordedWithKey(key)).toHaveLength(1);
    expect((await waiting()).map((row) => row.id)).not.toContain(id);
  });

  it("records a receiver's failure once and sends it no more, as GitLab does", async () => {
    receiver.answerWith(500, 'broken');
    try {
      await publish('refs/heads/failing');
      const request = await receiver.waitFor((r) => r.body?.ref === 'refs/heads/failing');
      const key = String(request.headers['idempotency-key']);
      await until(async () => expect(await recordedWithKey(key)).toMatchObject([{ response_status: '500', response_body: 'broken' }]));
      await until(async () => expect(await waiting()).toEqual([]));
      expect(withKey(key)).toHaveLength(1);
    } finally {
      receiver.answerWith(200);
    }
  });

  it('drops a delivery that failed every attempt (four retries, as Sidekiq runs WebHookWorker)', async () => {
    const key = randomUUID();
    const id = await writeDelivery({ idempotencyKey: key, ref: 'refs/heads/spent', attempts: 1 + DELIVERY_RETRIES.retryLimit });
    await app.kernel.jobs.run(DELIVER_JOB, { deliveryId: id });
    expect(withKey(key)).toHaveLength(0);
    expect((await waiting()).map((row) => row.id)).not.toContain(id);
  });

  it('runs an attempt that failed here again with the same Idempotency-Key, and records the delivery once', async () => {
    const realLogs = createLogStore(app.kernel.database);
    let failures = 1;
    const queued: { data: unknown; options: unknown }[] = [];
    const delivery = deliveryService({
      // The history's write fails once, as a database that went away would.
      logs: {
        ...realLogs,
        async insert(log, tx) {
          if (failures-- > 0) throw new Error('database unavailable');
          return realLogs.insert(log, tx);
        },
      },
      jobs: { enqueue: async (_name, data, options) => void queued.push({ data, options }) },
    });
    await delivery.publish({ trigger: 'push_events', projectId: app.project.id, groupId: null, payload: { object_kind: 'push', ref: 'refs/heads/retried' } });
    expect(queued).toEqual([{ data: { deliveryId: expect.any(Number) }, options: DELIVERY_RETRIES }]);
    const job = queued[0]!.data as { deliveryId: number };

    await expect(delivery.deliver(job)).rejects.toThrow('database unavailable');
    const first = receiver.received.filter((r) => r.body?.ref === 'refs/heads/retried');
    expect(first).toHaveLength(1);
    const key = String(first[0]!.headers['idempotency-key']);
    // Released for the retry, the attempt counted.
    expect((await waiting()).find((row) => row.id === job.deliveryId)).toMatchObject({ attempts: 1, claimedUntil: null, idempotencyKey: key });
    expect(await recordedWithKey(key)).toHaveLength(0);

    await delivery.deliver(job);
    expect(withKey(key)).toHaveLength(2);
    expect(await recordedWithKey(key)).toMatchObject([{ response_status: '200' }]);
    expect((await waiting()).map((row) => row.id)).not.toContain(job.deliveryId);
  });

  it('keeps a delivery written while its process stops, for the next start to send', async () => {
    const stopping = deliveryService({
      jobs: {
        enqueue: async (name) => {
          throw new JobServiceStoppedError(name);
        },
      },
    });
    await stopping.publish({ trigger: 'push_events', projectId: app.project.id, groupId: null, payload: { object_kind: 'push', ref: 'refs/heads/at-stop' } });
    const kept = (await waiting()).filter((row) => JSON.parse(row.payload).ref === 'refs/heads/at-stop');
    expect(kept).toHaveLength(1);
    expect(receiver.received.filter((r) => r.body?.ref === 'refs/heads/at-stop')).toHaveLength(0);

    await app.kernel.jobs.run(RECOVER_JOB);
    await receiver.waitFor((r) => r.body?.ref === 'refs/heads/at-stop');
    await until(async () => expect((await waiting()).map((row) => row.id)).not.toContain(kept[0]!.id));
  });

  it('passes on any other failure to queue', async () => {
    const broken = deliveryService({
      jobs: {
        enqueue: async () => {
          throw new Error('queue unavailable');
        },
      },
    });
    await expect(
      broken.publish({ trigger: 'push_events', projectId: app.project.id, groupId: null, payload: { object_kind: 'push', ref: 'refs/heads/unqueued' } }),
    ).rejects.toThrow('queue unavailable');
    await app.kernel.jobs.run(RECOVER_JOB);
    await receiver.waitFor((r) => r.body?.ref === 'refs/heads/unqueued');
  });
});
