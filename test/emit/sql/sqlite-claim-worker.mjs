// One SQLite connection in its own thread: waits at a shared barrier, then runs the claim once.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, sql, params, barrier } = workerData;
const db = new Database(file);
db.pragma('busy_timeout = 30000');
const flags = new Int32Array(barrier);
Atomics.add(flags, 1, 1);
Atomics.wait(flags, 0, 0);
try {
  const rows = db.prepare(sql).all(...params);
  parentPort.postMessage({ won: rows.length === 1 });
} catch (err) {
  parentPort.postMessage({ error: String(err) });
} finally {
  db.close();
}
