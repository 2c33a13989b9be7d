/**
 * URL configurations of receptive agents (the server connects to the agent). At
 * most one per agent; it authenticates either with a generated Ed25519 key pair
 * or with a client certificate and key.
 */
import { tooLongMessage, type Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import type { AgentWithReceptive } from '../agents/agent-service.js';
import { ClusterAgentUrlConfigurationEntity, type ClusterAgentUrlConfigurationRow } from '../entities/cluster-agent-url-configuration.js';
import { lengthMessage, serviceError } from '../shared/model-errors.js';
import type { SecretBox } from '../shared/secret-box.js';
import { isValidHost, urlError } from './address-rules.js';
import { generateAgentKeyPair, isCertificate, isPrivateKey } from './key-material.js';

const ALREADY_EXISTS = 'URL configuration already exists for this agent';

/** Certificates and keys arrive decoded from base64; an absent `clientKey` means key-pair auth. */
export interface NewUrlConfiguration {
  url: string;
  caCert?: Buffer | null;
  clientCert?: Buffer | null;
  clientKey?: Buffer | null;
  tlsHost?: string | null;
}

/** The widths of GitLab's columns, in characters (PEM text is ASCII, so a byte is a character). */
const URL_LIMIT = 2048;
const TLS_HOST_LIMIT = 2048;
const PEM_LIMIT = 16_384;

const present = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;
const pemLengthMessage = (attribute: string, bytes: Buffer | null) => (bytes && bytes.length > PEM_LIMIT ? `${attribute} ${tooLongMessage(PEM_LIMIT)}` : null);
const blankBytes = (bytes: Buffer | null | undefined) => !present(bytes) || bytes.toString('latin1').trim() === '';
const bytesOrNull = (bytes: Buffer | null | undefined) => (blankBytes(bytes) ? null : bytes!);
const base64OrNull = (bytes: Buffer | null) => (bytes ? bytes.toString('base64') : null);

function configurationErrors(
  url: string,
  config: { caCert: Buffer | null; tlsHost: string | null; certificateAuth: boolean; clientCert: Buffer | null; clientKey: Buffer | null },
) {
  const messages: (string | null)[] = [];
  messages.push(urlError(url), lengthMessage('Url', url, URL_LIMIT));
  if (config.caCert && !isCertificate(config.caCert)) messages.push('Ca cert must be a valid PEM certificate');
  messages.push(pemLengthMessage('Ca cert', config.caCert));
  if (config.tlsHost && !isValidHost(config.tlsHost)) messages.push('Tls host must be a valid hostname!');
  messages.push(lengthMessage('Tls host', config.tlsHost, TLS_HOST_LIMIT));
  if (config.certificateAuth) {
    if (!isCertificate(config.clientCert)) messages.push('Client cert must be a valid PEM certificate');
    messages.push(pemLengthMessage('Client cert', config.clientCert));
    if (!isPrivateKey(config.clientKey)) messages.push('Client key must be a valid PEM private key');
    messages.push(pemLengthMessage('Client key', config.clientKey));
  }
  return messages.filter((message): message is string => message !== null);
}

export function createUrlConfigurationService(database: Database, box: SecretBox) {
  return {
    find: (agentId: number): Promise<ClusterAgentUrlConfigurationRow | undefined> =>
      database.row(database.from(ClusterAgentUrlConfigurationEntity).where('agentId', agentId)),

    async create(agent: AgentWithReceptive, input: NewUrlConfiguration, userId: number): Promise<ClusterAgentUrlConfigurationRow> {
      if (present(agent.urlConfigurationId)) throw serviceError(ALREADY_EXISTS);
      const url = input.url.trim();
      const certificateAuth = present(input.clientKey);
      const config = {
        caCert: bytesOrNull(input.caCert),
        tlsHost: input.tlsHost?.trim() ? input.tlsHost : null,
        certificateAuth,
        // Without a client key the client certificate is ignored and a key pair is generated.
        clientCert: certificateAuth ? bytesOrNull(input.clientCert) : null,
        clientKey: certificateAuth ? bytesOrNull(input.clientKey) : null,
      };
      const messages = configurationErrors(url, config);
      if (messages.length > 0) throw serviceError(messages);
      const keyPair = certificateAuth ? null : generateAgentKeyPair();
      const now = new Date();
      const row: Omit<ClusterAgentUrlConfigurationRow, 'id'> = {
        agentId: agent.id,
        projectId: agent.projectId,
        createdByUserId: userId,
        url,
        caCert: base64OrNull(config.caCert),
        tlsHost: config.tlsHost,
        clientCert: base64OrNull(config.clientCert),
        clientKey: config.clientKey ? box.seal(config.clientKey) : null,
        publicKey: keyPair ? keyPair.publicKey.toString('base64') : null,
        privateKey: keyPair ? box.seal(keyPair.privateKey) : null,
        createdAt: now,
        updatedAt: now,
      };
      const id = await unlessTaken(database.insert(ClusterAgentUrlConfigurationEntity, row), () => {
        throw serviceError(ALREADY_EXISTS);
      });
      return { id, ...row };
    },

    remove: (id: number) => database.delete(ClusterAgentUrlConfigurationEntity, { id }),
  };
}

export type UrlConfigurationService = ReturnType<typeof createUrlConfigurationService>;
