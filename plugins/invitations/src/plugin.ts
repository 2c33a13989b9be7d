import { join } from 'node:path';
import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreMembersRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import * as v from 'valibot';
import { InvitationEntity } from './entities/invitation.js';
import { invitationRoutes } from './invitations/invitation-routes.js';
import { createInvitationService } from './invitations/invitation-service.js';
import { createInvitationStore } from './invitations/invitation-store.js';
import { createMailer } from './mail/mailer.js';
import { init } from './migrations/202611271100-init.js';

export const InvitationsConfigSchema = v.object({
  /** An SMTP connection URL (`smtp://user:pass@host:587`, `smtps://…`). Without it, messages go to `<dataDir>/outbox`. */
  smtpUrl: v.optional(v.string()),
  /** The sender of invitation emails. */
  mailFrom: v.optional(v.string(), 'forgekit <noreply@localhost>'),
});

export type InvitationsConfig = v.InferOutput<typeof InvitationsConfigSchema>;

/** Invitations to projects and groups by email: the invitation API, its email, and its acceptance. */
export const invitationsPlugin = definePlugin<InvitationsConfig>({
  id: 'invitations',
  compatibility: '^0.1.0',
  config: InvitationsConfigSchema,
  env: { FORGEKIT_SMTP_URL: 'smtpUrl', FORGEKIT_MAIL_FROM: 'mailFrom' },
  entities: [InvitationEntity],
  migrations: [init],
  requires: [coreAccessRef, coreUsersRef, coreMembersRef],
  register(ctx) {
    const instance = ctx.resolve(kernelServices.instance);
    const users = ctx.resolve(coreUsersRef);
    const mailer = createMailer({ smtpUrl: ctx.config.smtpUrl, from: ctx.config.mailFrom, outboxDir: join(instance.dataDir, 'outbox') });
    const deps = { users, members: ctx.resolve(coreMembersRef), mailer };
    const service = createInvitationService(createInvitationStore(ctx.resolve(kernelServices.database)), deps, {
      acceptUrl: (token) => `${instance.externalUrl}/api/v4/invitations/${token}/accept`,
      log: (message, error) => ctx.log.warn({ err: error }, message),
    });
    ctx.routes(...invitationRoutes(service, ctx.resolve(coreAccessRef), users));

    ctx.events.on(coreEvents.userEmailConfirmed, ({ userId, email }) => service.acceptAllFor(userId, email));
    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => service.removeAllOf({ type: 'Project', id: projectId }));
    ctx.events.on(coreEvents.groupDeleted, ({ groupId }) => service.removeAllOf({ type: 'Namespace', id: groupId }));
    ctx.events.on(coreEvents.userDeleted, ({ userId }) => service.forgetCreator(userId));
  },
});
