import { defineArtifact, fromWholeFiles } from '../artifact.js';

export const sqlArtifact = defineArtifact({
  name: 'sql',
  summary: 'dedup, saga and owned-table migrations per dialect (sql/<dialect>/NNNN_*.{up,down}.sql)',
  byDefault: true,
  consumes: ['plan'],
  load: async () => fromWholeFiles((await import('./index.js')).emitSql),
});
