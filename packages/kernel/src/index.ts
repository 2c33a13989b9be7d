export { createKernel, KERNEL_VERSION, type Kernel, type KernelOptions, type NodeListener, type RouteInfo } from './kernel.js';
export { loadConfig, KernelConfigSchema, type KernelConfig, type KernelConfigInput, type LoadConfigOptions } from './config/kernel-config.js';
export { checkConfig, ConfigError, type CheckedConfig } from './config/check-config.js';
export {
  createCommandContext,
  definePlugin,
  PLUGIN_CONTRACT_VERSION,
  type CommandContext,
  type CommandHost,
  type CommandValues,
  type ForgePlugin,
  type Lifecycle,
  type PluginCommand,
  type PluginCommandOption,
  type PluginContext,
} from './plugin/define-plugin.js';
export { createServiceRef, type ServiceRef, type ServiceRefOptions } from './plugin/service-ref.js';
export { kernelServices, type InstanceInfo, type UploadLimits } from './plugin/kernel-services.js';
export { BootError } from './plugin/boot-order.js';
export {
  defineRoute,
  type Route,
  type RouteResponse,
  type RouteContext,
  type AuthMode,
  type HttpMethod,
  type RouteGuard,
  type GuardedRoute,
} from './http/route.js';
export { relinkWebUrl, type RequestContext } from './http/context.js';
export * from './http/errors.js';
export { reply, created, noContent, accepted, raw, stream, page, Page, keysetPage, KeysetPage, Reply } from './http/responses.js';
export { params, rules, validateParams, describeRule, type ParamsSchema, type GroupRule } from './http/params.js';
export * as f from './http/fields.js';
export type { DescribedField, FieldDescription } from './http/fields.js';
export { TEXT_LIMIT, charLength, longerThan, tooLongMessage } from './http/text-length.js';
export type { UploadedFile } from './http/uploaded-file.js';
export { totalFor, totalFromRows, TOTAL_COLUMN, MAX_PER_PAGE, DEFAULT_PER_PAGE, MAX_COUNT, type PageRequest } from './http/pagination.js';
export { API_PREFIX } from './http/api-prefix.js';
export { contentDisposition } from './http/content-disposition.js';
export { tokenDigest, generateToken, type Principal, type Credential, type IdentityProvider } from './auth/identity.js';
export { insufficientScope, scopesFor } from './auth/authenticate.js';
export { requestMark } from './auth/request-mark.js';
export { keptUnderMark } from './db/kept-under-mark.js';
export { today } from './text/today.js';
export type { Database, Dialect } from './db/open-database.js';
export type { Transaction, TxOption } from './db/transaction.js';
export type { IdQuery } from './db/query.js';
export { isPostgresUrl } from './db/open-database.js';
export { defineEvent, type EventBus, type EventHandler, type EventDescriptor } from './services/events.js';
export { checkUnmodifiedSince } from './http/preconditions.js';
export { patchFrom, type PatchField } from './http/patch.js';
export type { JobService, JobHandler, JobOptions, EnqueueOptions } from './services/jobs.js';
export { JOB_STOP_GRACE_MS, JobServiceStoppedError } from './services/jobs.js';
export type { RateLimitService, RateLimit } from './services/rate-limit.js';
export type { FileStorage, StoredFile } from './services/file-storage.js';
export { createSecrets, generateSecretsKey, type Secrets } from './services/secrets.js';
export { createLogger, type Logger } from './services/logger.js';
export { aggregateMetrics, type Metrics, type MetricsExposition, type MetricsSnapshot } from './services/metrics.js';
export { requireOptionalPeers, POSTGRES_PACKAGES } from './services/optional-peers.js';
export { isLocalCaller } from './http/local-callers.js';
export { wildcardMatches } from './http/wildcard.js';
export { renderMarkdown } from './text/markdown.js';
export { buildOpenApiDocument, openApiPath, type OpenApiDocument, type DocumentInfo } from './openapi/build-document.js';
export { fieldSchema, objectSchema, type JsonSchema } from './openapi/field-schema.js';
export { acceptedSchema, nullable } from './openapi/schema-parts.js';
export { OPENAPI_PATH } from './openapi/openapi-route.js';
export { JsonText, keptList } from './http/json-text.js';
export { keptPages, PAGES_KEPT, type ListPageRead } from './http/kept-pages.js';
export {
  createFragmentCache,
  sourceKey,
  versionKey,
  type Fragment,
  type FragmentCache,
  type FragmentCacheStats,
  type RenderedFragment,
} from './presented/fragment-cache.js';
export { sharedBy } from './presented/shared-by.js';
