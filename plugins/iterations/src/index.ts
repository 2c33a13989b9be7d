export * from './contracts.js';
