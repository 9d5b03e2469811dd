/**
 * An artifact that renders from every tool spec (the handlers' bindings) can ride on the tools
 * artifact's pass instead of building each spec again: when both run, the pipeline hands the tools
 * emitter one rider per such artifact, and each spec and strict OpenAI form is built once, used by all,
 * and dropped before the next (so no run holds a Graph-sized API's specs at once).
 */
import type { ApiPlan, PlanEntry } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { FileSink } from '../types.js';
import type { OpenAiTool } from './to-openai.js';
import type { ToolSpec } from './tool-spec.js';

export interface ToolSpecRider {
  /** Before the API's first spec. */
  startApi(apiPlan: ApiPlan): void;
  /** Every entry of the API in plan order. Read-only: the tools emitter renders the same objects. */
  spec(apiPlan: ApiPlan, entry: PlanEntry, spec: ToolSpec, strict: OpenAiTool): void;
  /** After the API's last spec. */
  endApi(apiPlan: ApiPlan): void;
  diagnostics(): Diagnostic[];
}

/** Opens a rider for one run, writing its own files into the run's sink. */
export type ToolSpecRiderFactory = (config: ResolvedConfig, sink: FileSink) => ToolSpecRider;
