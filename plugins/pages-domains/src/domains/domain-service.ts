/**
 * Pages domains (GitLab's `PagesDomain` and its create, update and verify services): names,
 * certificates, the per-project cap, and verification by DNS.
 */
import { randomBytes } from 'node:crypto';
import { apiError, notFound, validationFailed, type EventBus, type Secrets } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { pagesDomainEvents, type TxtResolver } from '../contracts.js';
import type { PagesDomainRow } from '../entities/pages-domain.js';
import type { PagesSettingsReader } from '../settings/pages-settings.js';
import { addError, certificateErrors, type Errors } from './certificate-rules.js';
import type { DomainStore, PagesDomainPatch } from './domain-store.js';
import { holdsCode, REVERIFY_WITHIN_MS, VERIFICATION_PERIOD_MS } from './verification.js';

/** A hostname of dot-separated labels (numeric labels allowed), as GitLab's hostname validator takes. */
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export interface DomainInput {
  autoSslEnabled?: boolean | null;
  /** Absent: unchanged; null or empty: removed (on update). */
  certificate?: string | null;
  key?: string | null;
}

export interface DomainDeps {
  store: DomainStore;
  settings: PagesSettingsReader;
  secrets: Secrets;
  events: EventBus;
  resolveTxt: TxtResolver;
  /** Queues a verification of a new domain. */
  scheduleVerification(domainId: number): Promise<void>;
}

export type VerifyResult = { ok: true; domain: PagesDomainRow } | { ok: false; domain: PagesDomainRow; message: string };

export function createDomainService(deps: DomainDeps) {
  const { store, settings, secrets } = deps;
  const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value.trim() === '' ? null : value);

  async function nameErrors(domain: string, errors: Errors) {
    if (!HOSTNAME.test(domain)) addError(errors, 'domain', 'is not a valid hostname');
    const { host } = await settings.pages();
    const bareHost = host?.replace(/:\d+$/, '');
    if (bareHost && (domain === bareHost || domain.endsWith(`.${bareHost}`))) {
      addError(errors, 'domain', `Subdomains of the Pages root domain ${bareHost} are reserved and cannot be used as custom Pages domains.`);
    }
    if (await store.findByName(domain)) addError(errors, 'domain', 'has already been taken');
  }

  const taken = () => validationFailed({ domain: ['has already been taken'] });

  return {
    keyOf: (row: PagesDomainRow) => (row.sealedKey ? secrets.open(row.sealedKey).toString('utf8') : null),

    async find(projectId: number, domain: string): Promise<PagesDomainRow> {
      const row = await store.findOfProject(projectId, domain);
      if (!row) throw notFound('PagesDomain');
      return row;
    },

    list: (projectId: number, limit: number, offset: number) => store.listOfProject(projectId, limit, offset),
    count: (projectId: number) => store.countOfProject(projectId),
    listAll: (limit: number, offset: number) => store.listAll(limit, offset),
    countAll: () => store.countAll(),

    /** The admin list's `domain` filter: that one domain, or `404 PagesDomain Not Found`. */
    async findAnywhere(domain: string): Promise<PagesDomainRow> {
      const row = await store.findByName(domain);
      if (!row) throw notFound('PagesDomain');
      return row;
    },

    async create(projectId: number, name: string, input: DomainInput): Promise<PagesDomainRow> {
      const domain = name.trim().toLowerCase();
      const certificate = blankToNull(input.certificate) ?? null;
      const key = blankToNull(input.key) ?? null;
      const errors: Errors = {};
      await nameErrors(domain, errors);
      certificateErrors(domain, certificate, key, errors);
      if (Object.keys(errors).length > 0) throw validationFailed(errors);

      const now = new Date();
      const limit = await settings.maxDomainsPerProject();
      const id = await unlessTaken(
        store.insert(
          {
            projectId,
            domain,
            certificate,
            sealedKey: key ? secrets.seal(key) : null,
            certificateSource: 'user_provided',
            autoSslEnabled: input.autoSslEnabled ?? false,
            verificationCode: randomBytes(16).toString('hex'),
            verifiedAt: null,
            enabledUntil: null,
            createdAt: now,
            updatedAt: now,
          },
          limit,
        ),
        () => {
          throw taken();
        },
      );
      if (id === null) throw validationFailed({ base: [`This project reached the limit of custom domains. (Max ${limit})`] });
      await deps.scheduleVerification(id);
      return (await store.findById(id))!;
    },

    /** Certificate without key keeps the stored key (and the other way round); both blank remove them. */
    async update(row: PagesDomainRow, input: DomainInput): Promise<PagesDomainRow> {
      const givenCertificate = blankToNull(input.certificate);
      const givenKey = blankToNull(input.key);
      const patch: PagesDomainPatch = { updatedAt: new Date() };
      if (input.autoSslEnabled !== undefined && input.autoSslEnabled !== null) patch.autoSslEnabled = input.autoSslEnabled;

      if (givenCertificate !== undefined || givenKey !== undefined) {
        const certificate = givenCertificate === undefined ? (row.certificate ?? null) : givenCertificate;
        const key = givenKey === undefined ? this.keyOf(row) : givenKey;
        const errors = certificateErrors(row.domain, certificate, key);
        if (Object.keys(errors).length > 0) throw validationFailed(errors);
        Object.assign(patch, { certificate, sealedKey: key ? secrets.seal(key) : null, certificateSource: 'user_provided' });
      }
      await store.update(row.id, patch);
      return (await store.findById(row.id))!;
    },

    remove: (row: PagesDomainRow) => store.remove(row.id),
    removeAllOf: (projectId: number) => store.removeAllOf(projectId),

    /** Checks the DNS record; keeps `verified` and `enabled_until` as GitLab's verify service does. */
    async verify(row: PagesDomainRow): Promise<VerifyResult> {
      const now = new Date();
      if (!(await settings.verificationEnabled())) {
        if (!row.verifiedAt) {
          await store.update(row.id, { verifiedAt: now, updatedAt: now });
          await deps.events.emit(pagesDomainEvents.verified, { projectId: row.projectId, domain: row.domain });
        }
        return { ok: true, domain: (await store.findById(row.id))! };
      }
      if (await holdsCode(deps.resolveTxt, row.domain, row.verificationCode)) {
        const renewed = new Date(now.getTime() + VERIFICATION_PERIOD_MS);
        const enabledUntil = row.enabledUntil != null && row.enabledUntil > renewed ? row.enabledUntil : renewed;
        await store.update(row.id, { verifiedAt: row.verifiedAt ?? now, enabledUntil, updatedAt: now });
        if (!row.verifiedAt) await deps.events.emit(pagesDomainEvents.verified, { projectId: row.projectId, domain: row.domain });
        return { ok: true, domain: (await store.findById(row.id))! };
      }
      const disabled = row.enabledUntil != null && row.enabledUntil < now;
      const patch: PagesDomainPatch = {};
      if (row.verifiedAt) patch.verifiedAt = null;
      if (disabled) patch.enabledUntil = null;
      if (Object.keys(patch).length > 0) await store.update(row.id, { ...patch, updatedAt: now });
      return {
        ok: false,
        domain: (await store.findById(row.id))!,
        message: disabled ? `Couldn't verify ${row.domain}. It is now disabled.` : `Couldn't verify ${row.domain}`,
      };
    },

    /** The background pass: a given domain, or every domain unverified or close to its `enabled_until`. */
    async verifyDue(domainId?: number): Promise<void> {
      const rows = domainId
        ? [await store.findById(domainId)].filter((row): row is PagesDomainRow => row !== undefined)
        : await store.dueForVerification(new Date(Date.now() + REVERIFY_WITHIN_MS), 1000);
      for (const row of rows) await this.verify(row);
    },

    /** Verification failures answer 400 with the verify service's message. */
    failed: (message: string) => apiError(400, message),

    verifiedDomainsOf: async (projectIds: readonly number[]) => (projectIds.length === 0 ? [] : (await store.verifiedOf(projectIds)).map((row) => row.domain)),
  };
}

export type DomainService = ReturnType<typeof createDomainService>;
