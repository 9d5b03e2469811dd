/**
 * Escaping by target context: the only way text from a spec, a tool list or a config reaches generated
 * output (docs/decisions/0055-escape-at-the-sink-by-context-in-one-module.md). Below `ir/` and `emit/`, so both may
 * use it.
 */
export { tsIdentifier, isSafeIdentifier, RESERVED_IDENTIFIERS } from './identifier.js';
export { tsMember, tsNumber, tsObjectKey, tsPropertyKey, tsString, tsTemplateText } from './typescript.js';
export { docInline, docLines, lineComment } from './comment.js';
export { mdCode, mdText } from './markdown.js';
export { sqlComment } from './sql.js';
export { escapeStringifiedJson, jsonText } from './json.js';
export { terminalText } from './terminal.js';
export { fileNameSegment, outputPathProblem } from './file-name.js';
export { htmlText, scriptJson } from './html.js';
