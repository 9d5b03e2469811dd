/** Every rule the reports can describe: spec classification, code audit and MCP annotation rules. */
import { CODE_RULES } from '../../audit-code/rules.js';
import { MCP_RULES } from '../../audit-mcp/rules.js';
import { RULES, type RuleMeta } from '../../classify/rules.js';

export const ALL_RULES: readonly RuleMeta[] = [...RULES, ...CODE_RULES, ...MCP_RULES];

export const RULE_BY_ID: ReadonlyMap<string, RuleMeta> = new Map(ALL_RULES.map((r) => [r.id, r]));
