import { defineArtifact } from '../artifact.js';

export const reportArtifact = defineArtifact({
  name: 'report',
  summary: 'the audit as Markdown and JSON (report/audit.{md,json})',
  byDefault: true,
  consumes: ['plan'],
  load: async () => (await import('./index.js')).streamReport,
});
