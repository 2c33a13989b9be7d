export {
  createTestKernelApp,
  type TestKernelApp,
  type TestKernelOptions,
  type BaseFixtures,
  type TestResponse,
  type RequestOptions,
} from './create-test-app.js';
export { createTestDatabase, type TestDatabase } from './test-database.js';
export { schemaDriftOf } from './schema-drift.js';
export { recordStatements, statementsDuring, type StatementLog } from './statement-log.js';
export { startTestProcess, type TestProcess, type TestProcessOptions } from './test-process.js';
