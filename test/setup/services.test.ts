import { inject, expect, test } from 'vitest';
import pg from 'pg';
import mysql from 'mysql2/promise';

test('the PostgreSQL server started by global setup answers', async () => {
  const client = new pg.Client({ connectionString: inject('pgUrl') });
  await client.connect();
  const { rows } = await client.query('select current_setting($1) as v', ['server_version_num']);
  await client.end();
  expect(Number(rows[0].v)).toBeGreaterThanOrEqual(150000);
});

test('the MariaDB server started by global setup answers', async () => {
  const conn = await mysql.createConnection(inject('mysqlUrl'));
  const [rows] = await conn.query('SELECT VERSION() AS v');
  await conn.end();
  expect(String((rows as { v: string }[])[0].v)).toMatch(/MariaDB/);
});

test('the redis-server started by global setup answers', async () => {
  const { createClient } = await import('redis');
  const client = createClient({ url: inject('redisUrl') });
  await client.connect();
  const info = await client.sendCommand(['INFO', 'server']);
  await client.close();
  expect(String(info)).toMatch(/redis_version:\d+/);
});
