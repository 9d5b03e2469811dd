import { defineArtifact, fromWholeFiles } from '../artifact.js';

export const reportArtifact = defineArtifact({
  name: 'report',
  summary: 'the audit as Markdown and JSON (report/audit.{md,json})',
  byDefault: true,
  consumes: ['plan'],
  load: async () => fromWholeFiles((await import('./index.js')).emitReport),
});
