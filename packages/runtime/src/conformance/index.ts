/**
 * `@idemgen/runtime/conformance`: the store conformance vectors and their runner, for anyone who
 * writes a `DedupStore` (a DynamoDB or MongoDB store) and wants it held to the same rules as the
 * built-in five. No test framework inside.
 */
export { ConformanceError, formatConformanceReport, runStoreConformance } from './run.js';
export type { ConformanceOptions, ConformanceReport, ScenarioResult } from './run.js';
export { conformanceVectors, VECTOR_FILES } from './vectors.js';
export type {
  CallExpect,
  CallStep,
  CreateRuntimeStep,
  HandlerSpec,
  Requirement,
  RuntimeSpec,
  Scenario,
  Step,
  StoreExpect,
  StoreStep,
  VectorFile,
} from './schema.js';
