import { defineArtifact } from '../artifact.js';

export const clientArtifact = defineArtifact({
  name: 'client',
  summary: 'typed idempotent clients, one per OpenAPI input (client/<api>.gen.ts)',
  byDefault: true,
  consumes: ['plan'],
  load: async () => (await import('./index.js')).streamClient,
});
