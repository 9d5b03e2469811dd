/**
 * A "mail provider" for the LangGraph tests: the counting fault server (test/helpers/fault-server.ts)
 * answering 202 with a message id; every committed POST is a delivered message (the side effect).
 */
import { jsonAnswer, startFaultServer, type FaultServer } from '../../../helpers/fault-server.js';

export function startMailProvider(): Promise<FaultServer> {
  return startFaultServer({ respond: (_req, effect) => jsonAnswer(202, { messageId: `msg-${effect}` }) });
}

/** The raw side effect: POST a message to the provider; no key, no dedup (SendGrid v3 has none, SOP Case 1). */
export async function sendMessage(
  baseUrl: string,
  message: { to: string; body: string },
): Promise<{ messageId: string }> {
  const res = await fetch(`${baseUrl}/v3/mail/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
  });
  if (!res.ok) throw new Error(`mail provider answered ${res.status}`);
  return (await res.json()) as { messageId: string };
}
