import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const ClusterAgentUrlConfigurationEntity = defineEntity({
  name: 'ClusterAgentUrlConfiguration',
  tableName: 'cluster_agent_url_configurations',
  properties: (p) => ({
    id: p.integer().primary(),
    agentId: p.integer().unique(),
    projectId: p.integer().index(),
    createdByUserId: p.integer().nullable(),
    url: p.text(),
    caCert: p.text().nullable(),
    tlsHost: p.string().length(2048).nullable(),
    clientCert: p.text().nullable(),
    clientKey: p.text().nullable(),
    publicKey: p.string().length(255).nullable(),
    privateKey: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type ClusterAgentUrlConfigurationRow = InferEntity<typeof ClusterAgentUrlConfigurationEntity>;
