/** Test helpers for plugins built on core: the test app with seeded users per role. */
export { createTestApp, type TestApp, type TestAppOptions } from './testing/create-test-app.js';
export { seedFixtures, ROLES, type Role, type Fixtures } from './testing/seed.js';
export type { TestResponse, RequestOptions } from '@forgekit/testing';
export { askKernel, createSharedDatabaseApps, lastUseStamped, type SharedDatabaseApps } from './testing/shared-database.js';
