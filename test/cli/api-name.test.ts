/** `apiName` (top level or per input) names the client file, class, factory and tool files. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, scratchProject } from '../helpers/cli.js';

const config = (dir: string, value: unknown): void =>
  writeFileSync(join(dir, 'idemgen.config.json'), JSON.stringify(value));

describe('apiName', () => {
  it('per input: client, factory, class and tool files take the name; other inputs keep theirs', async () => {
    const dir = scratchProject(false);
    config(dir, {
      inputs: [{ path: 'specs/payments.openapi.yaml', apiName: 'billing' }, 'specs/messaging.openapi.yaml'],
    });
    const run = await runCli(['generate'], dir);
    expect(run.code).toBe(0);
    const client = readFileSync(join(dir, 'generated/client/billing.gen.ts'), 'utf8');
    expect(client).toMatch(/export function createBillingClient\(/);
    expect(client).toMatch(/export class BillingClient/);
    expect(existsSync(join(dir, 'generated/tools/mcp/billing.tools.json'))).toBe(true);
    expect(existsSync(join(dir, 'generated/client/payments.gen.ts'))).toBe(false);
    expect(existsSync(join(dir, 'generated/client/messaging.gen.ts'))).toBe(true);
  });

  it('top level: names the single API; with several APIs it is a config error naming the fix', async () => {
    const one = scratchProject(false);
    config(one, { inputs: ['specs/payments.openapi.yaml'], apiName: 'Stripe' });
    expect((await runCli(['generate'], one)).code).toBe(0);
    expect(readFileSync(join(one, 'generated/client/stripe.gen.ts'), 'utf8')).toMatch(/createStripeClient/);

    const many = scratchProject(false);
    config(many, { inputs: ['specs'], apiName: 'stripe' });
    const run = await runCli(['generate'], many);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/apiName "stripe" names one API, but this run has \d+: set apiName per input/);
  });

  it('a bad name is a config diagnostic with its pointer', async () => {
    const dir = scratchProject(false);
    config(dir, { inputs: [{ path: 'specs/payments.openapi.yaml', apiName: '9 lives' }] });
    const run = await runCli(['generate'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\/inputs\/0\/apiName must start with a letter/);
  });
});
