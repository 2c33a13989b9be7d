export { createTestApp, type TestApp, type TestAppOptions, type TestResponse, type RequestOptions } from './create-test-app.js';
export { seedFixtures, ROLES, type Role, type Fixtures } from './seed.js';
export { createTestDatabase, type TestDatabase } from './test-database.js';
export { schemaDriftOf } from './schema-drift.js';
export { recordStatements, type StatementLog } from './statement-log.js';
